/**
 * Every wait of the testkit is bounded, by blocks or by seconds, never a fixed sleep. A bound in
 * blocks is block time x 3 per block, plus a margin that grows with the node count (every node
 * connects to every other, and on 2 cores a larger devnet is slower at everything), x 1.5 on the
 * docker runtime. TESTKIT_SLOWDOWN (a factor, default 1) scales every bound on a slow machine.
 */
import type { RuntimeKind } from '../runtime/runtime.js';
import { TestkitUsageError } from './errors.js';

export type Within = { readonly blocks: number } | { readonly seconds: number };

export interface BoundFacts {
  readonly blockTimeMs: number;
  readonly nodes: number;
  readonly runtime: RuntimeKind;
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

export function boundMs(w: Within, f: BoundFacts): number {
  const checked = checkWithin(w);
  if ('seconds' in checked) return Math.round(checked.seconds * 1000 * slowdown());
  const runtime = f.runtime === 'docker' ? 1.5 : 1;
  return Math.round(slowdown() * runtime * (5_000 + 1_000 * f.nodes + checked.blocks * f.blockTimeMs * 3));
}

export function describeWithin(w: Within): string {
  return 'blocks' in w ? `within ${w.blocks} blocks` : `within ${w.seconds} s`;
}
