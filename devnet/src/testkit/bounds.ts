/**
 * Every wait of the testkit is bounded, by blocks or by seconds, never a fixed sleep. A bound in
 * blocks gives each block the longer of 3 block times and one block time plus the node's propose
 * timeout (3 s): a block whose proposer is down, paused or cut off (the faults the testkit makes)
 * is decided a round later, after that timeout whatever the block time. With 400 ms blocks, 3
 * block times per block failed a run in which a paused validator's turns cost two such rounds in
 * four blocks. Plus a margin that grows with the node count (every node connects to every other,
 * and on 2 cores a larger devnet is slower at everything), x 1.5 on the runtimes of containers
 * (docker, swarm). TESTKIT_SLOWDOWN (a factor, default 1) scales every bound on a slow machine.
 */
import type { RuntimeKind } from '../runtime/runtime.js';
import { TestkitUsageError } from './errors.js';

export type Within = { readonly blocks: number } | { readonly seconds: number };

/** What a testnet runs on: a devnet's runtime, or the simulation (SimTestnet), whose time is virtual. */
export type TestRuntime = RuntimeKind | 'sim';

export interface BoundFacts {
  readonly blockTimeMs: number;
  readonly nodes: number;
  readonly runtime: TestRuntime;
}

export function slowdown(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TESTKIT_SLOWDOWN;
  if (raw === undefined || raw === '') return 1;
  const f = Number(raw);
  if (!Number.isFinite(f) || f <= 0)
    throw new TestkitUsageError(`TESTKIT_SLOWDOWN must be a positive number, got ${raw}`);
  return f;
}

/** Checks a bound given as data (a scenario file): {blocks: N} or {seconds: N}, N >= 0. */
export function checkWithin(w: unknown): Within {
  const o = w as Record<string, unknown> | null;
  const n = (k: string) => typeof o?.[k] === 'number' && Number.isFinite(o[k]) && (o[k] as number) >= 0;
  if (o !== null && typeof o === 'object' && Object.keys(o).length === 1 && (n('blocks') || n('seconds')))
    return o as Within;
  throw new TestkitUsageError(
    `a bound must be {blocks: N} or {seconds: N} with N >= 0, got ${JSON.stringify(w)}`,
  );
}

/** The node's propose timeout at round 0 (chain-node's consensus defaults): what an absent proposer costs. */
const ROUND_PAST_ABSENT_PROPOSER_MS = 3_000;

export function boundMs(w: Within, f: BoundFacts): number {
  // Virtual time knows no machine's speed.
  if (f.runtime === 'sim') return unscaledBoundMs(w, f);
  // Seconds stay seconds on every runtime; blocks get half as long again on containers.
  const runtime = 'seconds' in checkWithin(w) || f.runtime === 'process' || f.runtime === 'threads' ? 1 : 1.5;
  return Math.round(slowdown() * runtime * unscaledBoundMs(w, f));
}

/**
 * The bound as on a calm machine and a runtime of processes: the simulation's, whose time is
 * virtual (no machine's speed in it).
 */
export function unscaledBoundMs(w: Within, f: Pick<BoundFacts, 'blockTimeMs' | 'nodes'>): number {
  const checked = checkWithin(w);
  if ('seconds' in checked) return checked.seconds * 1000;
  const perBlock = Math.max(3 * f.blockTimeMs, f.blockTimeMs + ROUND_PAST_ABSENT_PROPOSER_MS);
  return 5_000 + 1_000 * f.nodes + checked.blocks * perBlock;
}

export function describeWithin(w: Within): string {
  return 'blocks' in w ? `within ${w.blocks} blocks` : `within ${w.seconds} s`;
}
