/**
 * TEST ONLY (fault injection): the disk faults of a node, as <home>/disk_faults.json says them
 * (docs/PROTOCOL.md, "Disk faults"): the disk full, writes and fsyncs slowed by a set delay, and
 * writes made without an fsync lost when the node is killed (Jepsen's lazyfs). Read by the node
 * (faults/diskFaults.ts, with --fault-injection) and written by the devnet and the tests. Pure
 * text in and out.
 *   {"version": 1, "full": false, "write_delay_ms": 0, "fsync_delay_ms": 0, "lose_unsynced": false}
 * Every field but `version` may be left out (its value is then the one shown); no other field is
 * allowed, so a misspelt one is refused rather than silently ignored.
 */

export const DISK_FAULTS_FILE = 'disk_faults.json';
export const DISK_FAULTS_VERSION = 1;
/** Far above any useful delay: a bound on what a damaged file can make the node wait per write. */
export const MAX_DISK_DELAY_MS = 60_000;

export interface DiskFaults {
  /** Every write fails as the operating system's does on a full disk (ENOSPC). */
  readonly full: boolean;
  /** Each write waits this long before it is done. */
  readonly writeDelayMs: number;
  /** Each fsync (a synced write) waits this long, beside the write's own delay. */
  readonly fsyncDelayMs: number;
  /** Writes without an fsync stay in memory (reads see them) until the next synced one: a kill loses them. */
  readonly loseUnsynced: boolean;
}

export const NO_DISK_FAULTS: DiskFaults = {
  full: false,
  writeDelayMs: 0,
  fsyncDelayMs: 0,
  loseUnsynced: false,
};

/** Whether `f` injects nothing. */
export const noDiskFault = (f: DiskFaults): boolean =>
  !f.full && f.writeDelayMs === 0 && f.fsyncDelayMs === 0 && !f.loseUnsynced;

/** The line a node logs (at warn) when its disk faults change, and its fields. */
export const diskFaultsLog = (f: DiskFaults) => ({
  msg: noDiskFault(f) ? 'disk faults cleared' : 'DISK FAULTS in force',
  fields: {
    full: f.full,
    write_delay_ms: f.writeDelayMs,
    fsync_delay_ms: f.fsyncDelayMs,
    lose_unsynced: f.loseUnsynced,
  },
});

const FIELDS = ['version', 'full', 'write_delay_ms', 'fsync_delay_ms', 'lose_unsynced'] as const;

/** A refused file: the field at fault (null: the file as a whole) and what is wrong with it. */
export interface DiskFaultsProblem {
  readonly field: string | null;
  readonly problem: string;
}

const isDelay = (v: unknown): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= MAX_DISK_DELAY_MS;

/** The faults the file's text says, or what is wrong with it, named by field. */
export function parseDiskFaults(text: string): DiskFaults | DiskFaultsProblem {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { field: null, problem: `is not valid JSON (${(e as Error).message})` };
  }
  if (typeof j !== 'object' || j === null || Array.isArray(j))
    return { field: null, problem: 'must be a JSON object' };
  const o = j as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined) return { field: unknown, problem: `is not a field (${FIELDS.join(', ')})` };
  if (o.version !== DISK_FAULTS_VERSION)
    return { field: 'version', problem: `must be ${DISK_FAULTS_VERSION}` };
  for (const k of ['full', 'lose_unsynced'] as const)
    if (o[k] !== undefined && typeof o[k] !== 'boolean')
      return { field: k, problem: 'must be true or false' };
  for (const k of ['write_delay_ms', 'fsync_delay_ms'] as const)
    if (o[k] !== undefined && !isDelay(o[k]))
      return { field: k, problem: `must be an integer from 0 to ${MAX_DISK_DELAY_MS}` };
  return {
    full: o.full === true,
    writeDelayMs: (o.write_delay_ms as number | undefined) ?? 0,
    fsyncDelayMs: (o.fsync_delay_ms as number | undefined) ?? 0,
    loseUnsynced: o.lose_unsynced === true,
  };
}

/** Whether `parsed` is a refusal. */
export const isDiskFaultsProblem = (parsed: DiskFaults | DiskFaultsProblem): parsed is DiskFaultsProblem =>
  'problem' in parsed;

/** The file's JSON for `f` (every field written). */
export function diskFaultsToJson(f: DiskFaults): Record<string, unknown> {
  return {
    version: DISK_FAULTS_VERSION,
    full: f.full,
    write_delay_ms: f.writeDelayMs,
    fsync_delay_ms: f.fsyncDelayMs,
    lose_unsynced: f.loseUnsynced,
  };
}

/** The file's text for `f`. */
export const formatDiskFaults = (f: DiskFaults): string => `${JSON.stringify(diskFaultsToJson(f))}\n`;
