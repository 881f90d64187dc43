/** Expectations on chain progress: a height reached, every node synced. */
import { waitFor } from '@chain-devnet/kit/wait';
import { describeWithin, type Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { holds, untilEveryNode } from './poll.js';

export interface HeightExpectation {
  /** Default: every node. */
  readonly nodes?: readonly string[];
  readonly atLeast: number;
  /** Default: as many blocks as the highest node still lacks, plus 5. */
  readonly within?: Within;
}

/** Every named node at `atLeast` or above; their heights. */
export async function expectHeight(net: NetContext, e: HeightExpectation): Promise<Map<string, number>> {
  const nodes = e.nodes ?? net.names();
  const top = await net.chain.maxHeight(nodes).catch(() => 0);
  return untilEveryNode(net, {
    nodes,
    within: e.within ?? { blocks: Math.max(0, e.atLeast - top) + 5 },
    expected: `height ${e.atLeast} or above`,
    check: async (n) => {
      const h = await net.chain.height(n);
      return h >= e.atLeast ? holds(h) : { ok: false, found: `height ${h}`, height: h };
    },
  });
}

export interface SyncedExpectation {
  readonly nodes?: readonly string[];
  /** Blocks a node may be behind the highest; default 1. */
  readonly maxLag?: number;
  /** Default: 10 blocks. */
  readonly within?: Within;
}

/** Every named node answers, at most `maxLag` blocks behind the highest (all at one moment); the highest height. */
export async function expectSynced(net: NetContext, e: SyncedExpectation = {}): Promise<number> {
  const nodes = e.nodes ?? net.names();
  const lag = e.maxLag ?? 1;
  const within = e.within ?? { blocks: 10 };
  let last = new Map<string, number | null>();
  try {
    return await waitFor(`${nodes.join(', ')} synced`, net.bound(within), async () => {
      last = new Map(
        await Promise.all(nodes.map(async (n) => [n, await net.chain.height(n).catch(() => null)] as const)),
      );
      const hs = [...last.values()];
      if (hs.some((h) => h === null)) return null;
      const top = Math.max(...(hs as number[]));
      return top - Math.min(...(hs as number[])) <= lag ? top : null;
    });
  } catch (cause) {
    const silent = [...last].find(([, h]) => h === null);
    const answering = [...last].filter((x): x is [string, number] => x[1] !== null);
    const [topNode, top] = answering.sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
    const [low, lowH] = silent ?? answering.at(-1) ?? [nodes[0]!, null];
    throw net.failure(
      {
        node: low,
        height: lowH,
        expected: `every node of ${nodes.join(', ')} answering and at most ${lag} blocks behind the highest ${describeWithin(within)}`,
        found:
          silent !== undefined
            ? 'no answer'
            : `height ${lowH}, while ${topNode} is at ${top} (${[...last].map(([n, h]) => `${n} ${h}`).join(', ')})`,
      },
      cause,
    );
  }
}
