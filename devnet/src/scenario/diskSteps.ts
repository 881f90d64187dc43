/**
 * The scenario step of disk faults (docs/SCENARIOS.md, "Disk faults"): `disk`, devnet disk NODE as
 * data (runtime/diskRequest.ts: its fields, schema and reading, shared with the panel). Its
 * checks before anything starts and its run as a testkit call, here together.
 */
import { DISK_REQUEST_SCHEMA, type DiskRequest, diskChangeOf } from '../runtime/diskRequest.js';
import type { Testnet } from '../testkit/testnet/testnet.js';
import { type KnownNetwork, unknownName } from './network.js';

export type DiskStep = DiskRequest;
export { diskChangeOf };

export const DISK_STEP_SCHEMA = {
  disk: {
    description:
      "devnet disk NODE: full (true: the node's disk fills, false: freed), slowWrites and slowFsync (a delay on each write and fsync: 50ms, 0.2s; 0 none), loseUnsynced (a kill loses what it had not fsynced), clear (every fault gone).",
    ...DISK_REQUEST_SCHEMA,
  },
} as const;

/** The problems of a disk step the schema accepted, each naming its field. */
export function diskStepProblems(net: KnownNetwork, i: number, s: DiskStep): string[] {
  const path = `steps[${i}].disk`;
  const r = diskChangeOf(s, path);
  return [...unknownName(net, `${path}.node`, s.node, ['node']), ...('problems' in r ? r.problems : [])];
}

/** Runs a disk step as a testkit call. */
export async function diskStep(t: Testnet, s: DiskStep): Promise<void> {
  const r = diskChangeOf(s, 'disk');
  if ('problems' in r) throw new Error(r.problems.join('; '));
  await t.node(s.node).disk(r.change);
}
