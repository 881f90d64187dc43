/**
 * The scenario step of disk faults (docs/SCENARIOS.md, "Disk faults"): `disk`, devnet disk NODE as
 * data: `full` (true fills the node's disk, false frees it), `slowWrites` and `slowFsync` (a delay
 * on each write and each fsync: 50ms, 0.2s; 0 none), `loseUnsynced` (a kill loses what the node
 * had not fsynced), `clear` (every fault of the node gone). Its schema, its checks before anything
 * starts, and its run as a testkit call, here together.
 */
import { parseDuration } from '@chain-devnet/kit/values';
import type { DiskChange } from '../runtime/diskFaults.js';
import type { Testnet } from '../testkit/testnet/testnet.js';
import { type KnownNetwork, unknownName } from './network.js';

export interface DiskStep {
  readonly node: string;
  readonly full?: boolean;
  readonly slowWrites?: string;
  readonly slowFsync?: string;
  readonly loseUnsynced?: boolean;
  readonly clear?: boolean;
}

const DELAY = { type: 'string', minLength: 1 } as const;

export const DISK_STEP_SCHEMA = {
  disk: {
    description:
      "devnet disk NODE: full (true: the node's disk fills, false: freed), slowWrites and slowFsync (a delay on each write and fsync: 50ms, 0.2s; 0 none), loseUnsynced (a kill loses what it had not fsynced), clear (every fault gone).",
    type: 'object',
    additionalProperties: false,
    required: ['node'],
    properties: {
      node: { type: 'string', minLength: 1 },
      full: { type: 'boolean' },
      slowWrites: DELAY,
      slowFsync: DELAY,
      loseUnsynced: { type: 'boolean' },
      clear: { type: 'boolean' },
    },
  },
} as const;

/** A delay of the step in ms, or what is wrong with it. */
function delayOf(text: string | undefined, path: string): number | string | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === null || ms < 0 || ms > 60_000)
    return `${path} must be a delay such as 50ms or 0.2s, at most 60s (got ${JSON.stringify(text)})`;
  return ms;
}

/** The step as a change of the node's disk faults, or its problems naming the field. */
export function diskChangeOf(s: DiskStep, path: string): { change: DiskChange } | { problems: string[] } {
  const writes = delayOf(s.slowWrites, `${path}.slowWrites`);
  const fsync = delayOf(s.slowFsync, `${path}.slowFsync`);
  const problems = [writes, fsync].filter((x): x is string => typeof x === 'string');
  const change: DiskChange = {
    ...(s.clear === undefined ? {} : { clear: s.clear }),
    ...(s.full === undefined ? {} : { full: s.full }),
    ...(typeof writes === 'number' ? { writeDelayMs: writes } : {}),
    ...(typeof fsync === 'number' ? { fsyncDelayMs: fsync } : {}),
    ...(s.loseUnsynced === undefined ? {} : { loseUnsynced: s.loseUnsynced }),
  };
  if (problems.length === 0 && Object.keys(change).length === 0)
    problems.push(`${path}: give full, slowWrites, slowFsync, loseUnsynced or clear`);
  return problems.length > 0 ? { problems } : { change };
}

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
