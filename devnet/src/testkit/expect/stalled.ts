/**
 * The expectation of no progress: no named node's height moves for a window, as when no group
 * of nodes has a quorum (a partition 2-2 of four validators). Its window is a time, not blocks: a
 * stalled chain has no block time to count in. A height whose votes were already on their way
 * when the partition came may still land: `within` lets the still window start that late.
 */
import { now, pause } from '@chain-devnet/kit/wait';
import { describeWithin, type Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';

export interface StalledExpectation {
  /** How long no height may move. */
  readonly seconds: number;
  /** Default: every node. Each must answer in the window (name the nodes that are up). */
  readonly nodes?: readonly string[];
  /** Heights may still move until this bound, then the window starts again; default: not at all. */
  readonly within?: Within;
}

const MAX_SECONDS = 600;
/** Between reads of the heights: well under any block time a devnet runs. */
const POLL_MS = 200;

/** No named node's height moves for `seconds` (from now, or from the last move within `within`); the heights held. */
export async function expectStalled(net: NetContext, e: StalledExpectation): Promise<Map<string, number>> {
  if (!(typeof e.seconds === 'number' && e.seconds > 0 && e.seconds <= MAX_SECONDS))
    throw new TestkitUsageError(
      `stalled: seconds must be a number from 0 to ${MAX_SECONDS}, got ${e.seconds}`,
    );
  const nodes = e.nodes ?? net.names();
  for (const n of nodes) net.rpc(n); // an unknown node fails before any wait
  const started = now();
  const settleBy = started + (e.within === undefined ? 0 : net.bound(e.within));
  const expected =
    `no new block on ${nodes.join(', ')} for ${e.seconds} s (no progress)` +
    (e.within === undefined ? '' : `, starting ${describeWithin(e.within)}`);
  const held = new Map<string, number>();
  let windowFrom = started;
  for (;;) {
    // A node that does not answer this round cannot have moved as far as we can tell: read again.
    const heightsNow = await Promise.all(nodes.map((n) => net.chain.height(n).catch(() => null)));
    const heights = () =>
      nodes.map((n, i) => `${n} ${held.get(n) ?? '?'}→${heightsNow[i] ?? '?'}`).join(', ');
    const moved = nodes.findIndex(
      (n, i) => heightsNow[i] != null && held.has(n) && heightsNow[i]! > held.get(n)!,
    );
    if (moved >= 0 && now() > settleBy) {
      const node = nodes[moved]!;
      throw net.failure({
        node,
        height: heightsNow[moved]!,
        expected,
        found: `height ${held.get(node)} then ${heightsNow[moved]} after ${((now() - windowFrom) / 1000).toFixed(1)} s (${heights()})`,
      });
    }
    if (moved >= 0) windowFrom = now(); // still settling: the window starts again
    for (const [i, n] of nodes.entries())
      if (heightsNow[i] != null) held.set(n, Math.max(heightsNow[i]!, held.get(n) ?? 0));
    const deadline = windowFrom + e.seconds * 1000;
    if (now() >= deadline) break;
    await pause(Math.min(POLL_MS, Math.max(0, deadline - now())));
  }
  const silent = nodes.find((n) => !held.has(n));
  if (silent !== undefined)
    throw net.failure({ node: silent, height: null, expected, found: `no answer for ${e.seconds} s` });
  return held;
}
