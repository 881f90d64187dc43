/**
 * What the invariants look at: the nodes that answer at the end of a run, the first block each
 * has (1, or later for a node that joined from a snapshot), and the highest height every one of
 * them has (the heights above it are left to a later check).
 */
import type { BlockAnswer } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';

export interface Scope {
  /** Nodes that answered, with the first block each serves. */
  readonly nodes: ReadonlyMap<string, number>;
  /** Nodes that did not answer (stopped, killed): not checked, and said so. */
  readonly silent: readonly string[];
  /** Every answering node has every block up to here. */
  readonly top: number;
}

/** The first height at which `node` serves a block (at most `height`), by bisection. */
async function firstBlock(net: NetContext, node: string, height: number): Promise<number> {
  if ((await net.chain.blockOrNull(node, 1)) !== null || height <= 1) return 1;
  let lo = 1; // absent
  let hi = height; // present (its tip)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await net.chain.blockOrNull(node, mid)) === null) lo = mid;
    else hi = mid;
  }
  return hi;
}

export async function scopeOf(net: NetContext): Promise<Scope> {
  const nodes = new Map<string, number>();
  const silent: string[] = [];
  let top = Number.POSITIVE_INFINITY;
  for (const n of net.names()) {
    const h = await net.chain.height(n).catch(() => null);
    if (h === null) {
      silent.push(n);
      continue;
    }
    top = Math.min(top, h);
    nodes.set(n, h === 0 ? 1 : await firstBlock(net, n, h));
  }
  return { nodes, silent, top: nodes.size === 0 ? 0 : top };
}

/** The blocks of `node` from its first up to `top`. */
export function blocksInScope(net: NetContext, scope: Scope, node: string): Promise<BlockAnswer[]> {
  return net.chain.blocksOf(node, scope.nodes.get(node)!, scope.top);
}
