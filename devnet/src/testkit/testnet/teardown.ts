/**
 * The end of a run's devnet: kept running when asked (`devnet test --keep`: only its registry
 * entry goes, so the reaper leaves it), else torn down with its temporary folder when this
 * testkit started it; an attached devnet is left as it was.
 */
import { rm } from 'node:fs/promises';
import type { Devnet } from '../../devnet/devnet.js';
import { takeDown } from '../../operations/down.js';
import { RunRegistry } from '../registry.js';
import type { Run } from './options.js';

export async function releaseDevnet(devnet: Devnet, run: Run, keep: boolean): Promise<void> {
  const home = devnet.layout.home;
  if (run.owned && keep) {
    if (run.runId !== null) await new RunRegistry().remove(run.runId);
    run.log(`kept running in ${home}: devnet status --home ${home}; devnet down --home ${home}`);
  } else if (run.owned) {
    const removed = await takeDown(devnet.layout, devnet.runtime, false).catch((e: Error) => [
      `teardown failed: ${e.message}`,
    ]);
    if (run.tmp !== null) await rm(run.tmp, { recursive: true, force: true });
    if (run.runId !== null) await new RunRegistry().remove(run.runId);
    run.log(`torn down (${removed.length} things removed)`);
  }
}
