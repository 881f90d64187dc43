/**
 * TEST ONLY (fault injection, issue 42): <home>/chain_control.json, the tester's hand on the
 * chain's time, written by the devnet and read by the node (chainControl.ts, with
 * --fault-injection):
 *   {"version": 1, "hold": false, "mine_to_height": null, "block_time_ms": null,
 *    "time_offset_ms": 0, "clock_skew_ms": 0}
 * Every field but version may be left out (its default). Pure text in and out
 * (docs/PROTOCOL.md, "Chain control").
 */

export const CHAIN_CONTROL_FILE = 'chain_control.json';
export const CHAIN_CONTROL_VERSION = 1;

/** The control in force on a node. */
export interface ChainControl {
  /** The validator enters no new height (but one it may already decide: the heights to mine). */
  readonly hold: boolean;
  /** Heights up to this one are entered with no wait between them, held or not; null: none. */
  readonly mineToHeight: number | null;
  /** The wait between heights in place of the genesis's block time; null: the node's own. */
  readonly blockTimeMs: number | null;
  /** Added to the node's clock for chain time (block timestamps, their check, mempool ages); never below 0. */
  readonly timeOffsetMs: number;
  /** Added to the node's own clock (its clock runs ahead or behind); never the machine's. */
  readonly clockSkewMs: number;
}

export const NO_CHAIN_CONTROL: ChainControl = {
  hold: false,
  mineToHeight: null,
  blockTimeMs: null,
  timeOffsetMs: 0,
  clockSkewMs: 0,
};

/** The bounds of the fields: the longest block time, the furthest chain time, the largest skew. */
export const CHAIN_CONTROL_LIMITS = {
  maxBlockTimeMs: 3_600_000,
  /** About 100 years. */
  maxTimeOffsetMs: 3_155_760_000_000,
  maxClockSkewMs: 86_400_000,
} as const;

export type ParsedChainControl = { ok: true; control: ChainControl } | { ok: false; error: string };

const FIELDS = ['version', 'hold', 'mine_to_height', 'block_time_ms', 'time_offset_ms', 'clock_skew_ms'];

class Bad extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function integer(j: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = j[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw new Bad(`${key} must be a whole number from ${min} to ${max}`);
  return v;
}

function orNull(j: Record<string, unknown>, key: string, max: number): number | null | undefined {
  return j[key] === null ? null : integer(j, key, 0, max);
}

function controlOf(j: unknown): ChainControl {
  if (!isObject(j)) throw new Bad('the file must be a JSON object');
  const extra = Object.keys(j).find((k) => !FIELDS.includes(k));
  if (extra !== undefined) throw new Bad(`${extra} is not a field (${FIELDS.join(', ')})`);
  if (j.version !== CHAIN_CONTROL_VERSION) throw new Bad(`version must be ${CHAIN_CONTROL_VERSION}`);
  if (j.hold !== undefined && typeof j.hold !== 'boolean') throw new Bad('hold must be true or false');
  const L = CHAIN_CONTROL_LIMITS;
  return {
    hold: j.hold ?? false,
    mineToHeight: orNull(j, 'mine_to_height', Number.MAX_SAFE_INTEGER) ?? null,
    blockTimeMs: orNull(j, 'block_time_ms', L.maxBlockTimeMs) ?? null,
    timeOffsetMs: integer(j, 'time_offset_ms', 0, L.maxTimeOffsetMs) ?? 0,
    clockSkewMs: integer(j, 'clock_skew_ms', -L.maxClockSkewMs, L.maxClockSkewMs) ?? 0,
  };
}

/** The file's control, or what is wrong with it (naming the field). */
export function parseChainControl(text: string): ParsedChainControl {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  try {
    return { ok: true, control: controlOf(j) };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, error: e.message };
    throw e;
  }
}

/** The control in the file's names (also the test-only RPC's answer, GET /chain/control). */
export function chainControlToJson(c: ChainControl) {
  return {
    version: CHAIN_CONTROL_VERSION,
    hold: c.hold,
    mine_to_height: c.mineToHeight,
    block_time_ms: c.blockTimeMs,
    time_offset_ms: c.timeOffsetMs,
    clock_skew_ms: c.clockSkewMs,
  };
}

/** The file's text for `c`, every field written. */
export function formatChainControl(c: ChainControl): string {
  return `${JSON.stringify(chainControlToJson(c))}\n`;
}
