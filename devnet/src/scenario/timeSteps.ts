/**
 * The scenario steps of the chain's time (docs/SCENARIOS.md, "Time"): `chain` (devnet chain:
 * `pause`, `resume`, `{mine: N}`, `{until_height: H}`, `{until_epoch: E}`, `{block_time: D}`,
 * `{time: +D}`, `{at: UNIX}`) and `clock` (devnet clock NODE --skew). Their schema, their checks
 * before anything starts, and their run as testkit calls (net.time), here together. Each gives the
 * height the chain is at after it (a mine: the last height it made) for the steps after it.
 */
import { parseDuration, parseSignedDuration } from '@chain-devnet/kit/values';
import type { Testnet } from '../testkit/testnet/testnet.js';
import { type KnownNetwork, unknownName } from './network.js';

export type ChainStep =
  | 'pause'
  | 'resume'
  | { readonly mine: number }
  | { readonly until_height: number }
  | { readonly until_epoch: number }
  | { readonly block_time: string }
  | { readonly time: string }
  | { readonly at: number };

export interface TimeSteps {
  readonly chain?: ChainStep;
  readonly clock?: { readonly node: string; readonly skew: string };
}

const COUNT = { type: 'integer', minimum: 1 } as const;
const one = (key: string, value: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: [key],
  properties: { [key]: value },
});

export const TIME_STEPS_SCHEMA = {
  chain: {
    description:
      'devnet chain: pause (validators enter no new height), resume, {mine: N} blocks now (or {until_height: H}, {until_epoch: E}), {block_time: 2s | default}, {time: +1h} or {at: UNIX} (chain time forward, never back); every block decided by the validators.',
    oneOf: [
      { enum: ['pause', 'resume'] },
      one('mine', COUNT),
      one('until_height', COUNT),
      one('until_epoch', COUNT),
      one('block_time', { type: 'string', minLength: 1 }),
      one('time', { type: 'string', minLength: 1 }),
      one('at', { type: 'integer', minimum: 0 }),
    ],
  },
  clock: {
    description:
      "devnet clock NODE --skew: the node's own clock ahead (+10s) or behind (-10s), never the machine's.",
    type: 'object',
    additionalProperties: false,
    required: ['node', 'skew'],
    properties: { node: { type: 'string', minLength: 1 }, skew: { type: 'string', minLength: 1 } },
  },
} as const;

/** The problems of a time step the schema accepted, each naming its field. */
export function timeStepProblems(
  net: KnownNetwork,
  i: number,
  kind: keyof TimeSteps,
  step: TimeSteps,
): string[] {
  const path = `steps[${i}].${kind}`;
  if (kind === 'clock') {
    const { node, skew } = step.clock!;
    const out = unknownName(net, `${path}.node`, node, ['node']);
    if (parseSignedDuration(skew) === null)
      out.push(`${path}.skew must be a duration with a sign like +3s or -10s`);
    return out;
  }
  const c = step.chain!;
  if (typeof c === 'string') return [];
  if ('block_time' in c && c.block_time !== 'default' && !(parseDuration(c.block_time) ?? 0))
    return [`${path}.block_time must be a duration like 500ms or 2s, or default`];
  if ('time' in c && !((parseSignedDuration(c.time) ?? 0) > 0))
    return [`${path}.time must be a forward duration like +1h (chain time never moves backwards)`];
  return [];
}

/** Runs a time step as testkit calls; the height the chain is at after it. */
export async function timeStep(t: Testnet, kind: keyof TimeSteps, step: TimeSteps): Promise<number | null> {
  if (kind === 'clock') {
    await t.time.skew(step.clock!.node, parseSignedDuration(step.clock!.skew)!);
    return null;
  }
  const c = step.chain!;
  if (c === 'pause') return t.time.pause();
  if (c === 'resume') return t.time.resume();
  if ('mine' in c) return (await t.time.mine(c.mine)).at(-1) ?? null;
  if ('until_height' in c) return (await t.time.mine({ height: c.until_height })).at(-1) ?? null;
  if ('until_epoch' in c) return (await t.time.mine({ epoch: c.until_epoch })).at(-1) ?? null;
  if ('block_time' in c)
    await t.time.blockTime(c.block_time === 'default' ? null : parseDuration(c.block_time));
  else if ('time' in c) await t.time.advance(parseSignedDuration(c.time)!);
  else await t.time.setTime(c.at);
  return null;
}
