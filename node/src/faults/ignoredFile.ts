/**
 * A fault injection's file (blocked_peers.json, net_conditions.json, disk_faults.json) in the home
 * of a node started without --fault-injection: said once, at start, and ignored, so that a file
 * left behind in a home never silently changes a node started by hand.
 */
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';

export async function noteIgnoredFaultFile(path: string, logger: Logger): Promise<void> {
  const present = await access(path).then(
    () => true,
    () => false,
  );
  if (present)
    logger.info(
      `${basename(path)} is present but fault injection is off: ignored (--fault-injection honours it)`,
      {
        path,
      },
    );
}
