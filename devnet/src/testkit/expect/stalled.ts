/**
 * The expectation of no progress: no named node's height moves for a window from now, as when no
 * group of nodes has a quorum (a partition 2-2 of four validators). Its window is a time, not
 * blocks: a stalled chain has no block time to count in.
 */
import { pause } from '@chain-devnet/node/harness';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';

export interface StalledExpectation {
  /** How long, from now, no height may move. */
  readonly seconds: number;
  /** Default: every node. Each must answer at least once in the window (name the nodes that are up). */
  readonly nodes?: readonly string[];
}

const MAX_SECONDS = 600;
/** Between reads of the heights: well under any block time a devnet runs. */
const POLL_MS = 200;

/** No named node's height above the one it answered first, for `seconds`; the heights they held. */
export async function expectStalled(net: NetContext, e: StalledExpectation): Promise<Map<string, number>> {
  if (!(typeof e.seconds === 'number' && e.seconds > 0 && e.seconds <= MAX_SECONDS))
    throw new TestkitUsageError(
      `stalled: seconds must be a number from 0 to ${MAX_SECONDS}, got ${e.seconds}`,
    );
  const nodes = e.nodes ?? net.names();
  for (const n of nodes) net.rpc(n); // an unknown node fails before any wait
  const expected = `no new block on ${nodes.join(', ')} for ${e.seconds} s (no progress)`;
  const held = new Map<string, number>();
  const started = Date.now();
  const deadline = started + e.seconds * 1000;
  for (;;) {
    // A node that does not answer this round cannot have moved as far as we can tell: read again.
    const now = await Promise.all(nodes.map((n) => net.chain.height(n).catch(() => null)));
    const heights = () => nodes.map((n, i) => `${n} ${held.get(n) ?? '?'}→${now[i] ?? '?'}`).join(', ');
    for (const [i, node] of nodes.entries()) {
      const h = now[i] ?? null;
      if (h === null) continue;
      const first = held.get(node);
      if (first === undefined) held.set(node, h);
      else if (h > first)
        throw net.failure({
          node,
          height: h,
          expected,
          found: `height ${first} then ${h} after ${((Date.now() - started) / 1000).toFixed(1)} s (${heights()})`,
        });
    }
    if (Date.now() >= deadline) break;
    await pause(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
  }
  const silent = nodes.find((n) => !held.has(n));
  if (silent !== undefined)
    throw net.failure({ node: silent, height: null, expected, found: `no answer for ${e.seconds} s` });
  return held;
}
