/** Expectations on a transaction: received by, pending on, confirmed on or failed on every named node. */
import type { ReceiptAnswer } from '@chain-devnet/node/client';
import type { Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { type Check, holds, untilEveryNode } from './poll.js';

export const TX_STATUSES = ['received', 'pending', 'confirmed', 'failed'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];

export interface TxExpectation {
  readonly hash: string;
  /**
   * received: the node knows it (its receipt answers, whatever the status); pending, confirmed,
   * failed: the receipt's status. Confirmed also means at one height on every named node, in the
   * block there.
   */
  readonly status: TxStatus;
  readonly nodes?: readonly string[];
  /** For failed: a text the receipt's error must contain. */
  readonly error?: string;
  /** Default: 10 blocks. */
  readonly within?: Within;
}

const describe = (r: ReceiptAnswer | null) =>
  r === null
    ? 'unknown (404)'
    : `${r.status}${r.block_height === null ? '' : ` at ${r.block_height}`}${r.error ? ` (${r.error})` : ''}`;

/** Every named node's receipt. */
export async function expectTx(net: NetContext, e: TxExpectation): Promise<Map<string, ReceiptAnswer>> {
  if (!(TX_STATUSES as readonly string[]).includes(e.status))
    throw new TestkitUsageError(
      `a transaction's status is one of ${TX_STATUSES.join(', ')}, got ${e.status}`,
    );
  const nodes = e.nodes ?? net.names();
  const expected =
    e.status === 'received'
      ? `transaction ${e.hash} known (received)`
      : `transaction ${e.hash} ${e.status}${e.error === undefined ? '' : ` with an error containing "${e.error}"`}`;
  const receipts = await untilEveryNode(net, {
    nodes,
    within: e.within ?? { blocks: 10 },
    expected,
    check: async (n): Promise<Check<ReceiptAnswer>> => {
      const r = await net.chain.receipt(n, e.hash);
      const found = describe(r);
      if (r === null) return { ok: false, found };
      if (e.status === 'received') return holds(r);
      if (r.status === e.status && (e.error === undefined || (r.error ?? '').includes(e.error)))
        return holds(r);
      // A final outcome other than the one expected never changes.
      return { ok: false, found, final: r.status !== 'pending' };
    },
  });
  if (e.status === 'confirmed') {
    const [first, ...rest] = nodes;
    const height = receipts.get(first!)!.block_height!;
    for (const n of rest) {
      const h = receipts.get(n)!.block_height;
      if (h !== height)
        throw net.failure({
          node: n,
          height: h,
          expected: `${e.hash} confirmed at ${height}, as on ${first}`,
          found: `confirmed at ${h}`,
        });
    }
    for (const n of nodes) {
      const b = await net.chain.block(n, height);
      if (!b.txs.some((t) => t.tx_hash === e.hash))
        throw net.failure({
          node: n,
          height,
          expected: `block ${height} holds ${e.hash} (its receipt says so)`,
          found: `a block of ${b.txs.length} other transactions`,
        });
    }
    net.ledger.record(e.hash, height, `expect tx confirmed (step "${net.step}")`);
  }
  return receipts;
}
