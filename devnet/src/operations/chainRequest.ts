/**
 * A control of the chain's time as data, in `devnet chain` and `devnet clock` words: the scenario's
 * `chain` and `clock` steps and the panel's POST /api/chain and /api/clock take the same forms.
 * `pause`, `resume`, `{mine: N}`, `{until_height: H}`, `{until_epoch: E}`, `{block_time: 2s |
 * default}`, `{time: +1h}`, `{at: UNIX}`; a clock is `{node, skew: +3s | -10s | 0s}`. Their JSON
 * Schema, their checks (each problem naming its field), and their run on the controls that carry
 * them out (the testkit's net.time, or operations/chainTime.ts for the panel).
 */
import { parseDuration, parseSignedDuration } from '@chain-devnet/kit/values';
import type { ChainTime, MineTarget } from './chainTime.js';

export type ChainRequest =
  | 'pause'
  | 'resume'
  | { readonly mine: number }
  | { readonly until_height: number }
  | { readonly until_epoch: number }
  | { readonly block_time: string }
  | { readonly time: string }
  | { readonly at: number };

export interface ClockRequest {
  readonly node: string;
  readonly skew: string;
}

const COUNT = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const TEXT = { type: 'string', minLength: 1, maxLength: 64 } as const;
const one = (key: string, value: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: [key],
  properties: { [key]: value },
});

export const CHAIN_REQUEST_SCHEMA = {
  description:
    'devnet chain: pause (validators enter no new height), resume, {mine: N} blocks now (or {until_height: H}, {until_epoch: E}), {block_time: 2s | default}, {time: +1h} or {at: UNIX} (chain time forward, never back); every block decided by the validators.',
  oneOf: [
    { enum: ['pause', 'resume'] },
    one('mine', COUNT),
    one('until_height', COUNT),
    one('until_epoch', COUNT),
    one('block_time', TEXT),
    one('time', TEXT),
    one('at', { type: 'integer', minimum: 0, maximum: 1e11 }),
  ],
} as const;

export const CLOCK_REQUEST_SCHEMA = {
  description:
    "devnet clock NODE --skew: the node's own clock ahead (+10s) or behind (-10s), never the machine's.",
  type: 'object',
  additionalProperties: false,
  required: ['node', 'skew'],
  properties: { node: { type: 'string', minLength: 1, maxLength: 128 }, skew: TEXT },
} as const;

/** The problems of a chain request the schema accepted, each naming its field under `path`. */
export function chainRequestProblems(c: ChainRequest, path: string): string[] {
  if (typeof c === 'string') return [];
  if ('block_time' in c && c.block_time !== 'default' && !(parseDuration(c.block_time) ?? 0))
    return [`${path}.block_time must be a duration like 500ms or 2s, or default`];
  if ('time' in c && !((parseSignedDuration(c.time) ?? 0) > 0))
    return [`${path}.time must be a forward duration like +1h (chain time never moves backwards)`];
  return [];
}

/** The problem of a clock request's skew (its node is checked by the caller, who knows the nodes). */
export function clockSkewProblems(c: ClockRequest, path: string): string[] {
  return parseSignedDuration(c.skew) === null
    ? [`${path}.skew must be a duration with a sign like +3s or -10s`]
    : [];
}

/** What carries a chain request out: the testkit's net.time, or chainControls(ChainTime). */
export interface TimeControls {
  pause(): Promise<number>;
  resume(): Promise<number>;
  mine(target: MineTarget): Promise<readonly number[]>;
  blockTime(ms: number | null): Promise<void>;
  advance(ms: number): Promise<number>;
  setTime(unixSeconds: number): Promise<number>;
}

/** The devnet's own controls (operations/chainTime.ts) as TimeControls. */
export function chainControls(t: ChainTime): TimeControls {
  return {
    pause: async () => (await t.pause()).height,
    resume: async () => (await t.resume()).height,
    mine: async (target) => (await t.mine(target)).heights,
    blockTime: (ms) => t.blockTime(ms),
    advance: async (ms) => (await t.jump({ byMs: ms })).offsetMs,
    setTime: async (unix) => (await t.jump({ atUnix: unix })).offsetMs,
  };
}

/**
 * Carries out a checked request; the height the chain is at after it (pause: held at; resume:
 * goes on from; a mine: the last height it made, null when there was nothing to make), else null.
 */
export async function runChainRequest(t: TimeControls, c: ChainRequest): Promise<number | null> {
  if (c === 'pause') return t.pause();
  if (c === 'resume') return t.resume();
  if ('mine' in c) return (await t.mine({ blocks: c.mine })).at(-1) ?? null;
  if ('until_height' in c) return (await t.mine({ height: c.until_height })).at(-1) ?? null;
  if ('until_epoch' in c) return (await t.mine({ epoch: c.until_epoch })).at(-1) ?? null;
  if ('block_time' in c) await t.blockTime(c.block_time === 'default' ? null : parseDuration(c.block_time));
  else if ('time' in c) await t.advance(parseSignedDuration(c.time)!);
  else await t.setTime(c.at);
  return null;
}
