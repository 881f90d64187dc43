/**
 * A change of one node's disk faults as data (`devnet disk NODE` in a request's words): the
 * scenario's disk step and the panel's POST /api/disk. `full` (true fills the disk, false frees
 * it), `slowWrites` and `slowFsync` (a delay on each write and each fsync: 50ms, 0.2s; 0 none),
 * `loseUnsynced` (a kill loses what the node had not fsynced), `clear` (every fault gone). Its
 * JSON Schema and its reading into the change the devnet makes, a bad value naming its field.
 */
import { parseDuration } from '@chain-devnet/kit/values';
import type { DiskChange } from './diskFaults.js';

export interface DiskRequest {
  readonly node: string;
  readonly full?: boolean;
  readonly slowWrites?: string;
  readonly slowFsync?: string;
  readonly loseUnsynced?: boolean;
  readonly clear?: boolean;
}

const DELAY = { type: 'string', minLength: 1, maxLength: 32 } as const;

export const DISK_REQUEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['node'],
  properties: {
    node: { type: 'string', minLength: 1, maxLength: 128 },
    full: { type: 'boolean' },
    slowWrites: DELAY,
    slowFsync: DELAY,
    loseUnsynced: { type: 'boolean' },
    clear: { type: 'boolean' },
  },
} as const;

/** A delay of the request in ms, or what is wrong with it. */
function delayOf(text: string | undefined, path: string): number | string | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === null || ms < 0 || ms > 60_000)
    return `${path} must be a delay such as 50ms or 0.2s, at most 60s (got ${JSON.stringify(text)})`;
  return ms;
}

/** The request as a change of the node's disk faults, or its problems naming the field (`path`.…). */
export function diskChangeOf(s: DiskRequest, path: string): { change: DiskChange } | { problems: string[] } {
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
