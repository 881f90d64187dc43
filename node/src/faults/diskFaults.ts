/**
 * TEST ONLY (fault injection): <home>/disk_faults.json (disk/faults.ts has its form) puts the disk
 * fault layer (disk/layer.ts) in force: a full disk, slow writes and fsyncs, writes lost to a kill
 * unless fsynced. Honoured only with --fault-injection, followed as blocked_peers.json is
 * (faultFile.ts: fs.watchFile, read at start and on each change; a missing file is no fault).
 * A file that cannot be used is refused with a warning naming the field at fault, and the faults
 * in force before it stay. Without --fault-injection the layer is never made (the writers go
 * straight to the disk) and a file present is noted once, ignored.
 */
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import {
  DISK_FAULTS_FILE,
  diskFaultsLog,
  isDiskFaultsProblem,
  NO_DISK_FAULTS,
  parseDiskFaults,
} from '../disk/faults.js';
import { DiskLayer } from '../disk/layer.js';
import type { Ticker } from '../util/ticker.js';
import { followFaultFile, noteIgnoredFaultFile } from './faultFile.js';

/** Puts the file's text in force on `layer`; a text that cannot be used is refused, the faults before it staying. */
export function applyDiskFaults(text: string | null, layer: DiskLayer, path: string, logger: Logger): void {
  const parsed = text === null ? NO_DISK_FAULTS : parseDiskFaults(text);
  if (isDiskFaultsProblem(parsed)) {
    const what = parsed.field === null ? 'disk_faults.json' : `disk_faults.json: ${parsed.field}`;
    logger.warn(`${what} ${parsed.problem}; refused, the disk faults in force stay`, { path });
    return;
  }
  layer.set(parsed);
  const { msg, fields } = diskFaultsLog(parsed);
  logger.warn(msg, { path, ...fields });
}

/**
 * Follows `path` onto `layer` (faultFile.ts); settles once the file as it is at start is in
 * force (a restarted node has its faults before its first write). Returns what stops following it.
 */
export async function watchDiskFaults(path: string, layer: DiskLayer, logger: Logger): Promise<() => void> {
  let seen = false;
  const followed = followFaultFile(
    path,
    (text) => {
      // A first look finding no file is no fault: nothing to say.
      const first = !seen;
      seen = true;
      if (text === null && first) return;
      applyDiskFaults(text, layer, path, logger);
    },
    logger,
  );
  await followed.ready;
  return followed.stop;
}

/**
 * The disk fault layer of a node (null without --fault-injection, a file present then noted
 * once), following <home>/disk_faults.json; `stop` ends the following.
 */
export async function diskFaultLayer(
  home: string,
  faultInjection: boolean,
  ticker: Ticker,
  logger: Logger,
): Promise<{ layer: DiskLayer | null; stop: () => void }> {
  const path = join(home, DISK_FAULTS_FILE);
  if (!faultInjection) {
    await noteIgnoredFaultFile(path, logger);
    return { layer: null, stop: () => {} };
  }
  const layer = new DiskLayer(ticker);
  return { layer, stop: await watchDiskFaults(path, layer, logger) };
}
