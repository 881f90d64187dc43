/**
 * Invariant: no confirmed transaction lost. Every transaction seen confirmed during the run (the
 * ledger: the load generator's, the wallet's, the devnet-key transactions) is, on every node, in
 * the block of the height it was confirmed at, and its receipt there says confirmed at that height.
 */
import { mapLimit } from '../chain.js';
import type { NetContext } from '../context.js';
import type { Scope } from './scope.js';

export async function checkConfirmedKept(net: NetContext, scope: Scope): Promise<number> {
  const entries = net.ledger.all().filter((c) => c.height <= scope.top);
  for (const [node, first] of scope.nodes) {
    const mine = entries.filter((c) => c.height >= first);
    await mapLimit(mine, 16, async (c) => {
      const b = await net.chain.block(node, c.height);
      if (!b.txs.some((t) => t.tx_hash === c.hash))
        throw net.failure({
          node,
          height: c.height,
          expected: `transaction ${c.hash} in block ${c.height} (seen confirmed there by ${c.by})`,
          found: `a block without it (${b.txs.length} transactions)`,
        });
      const r = await net.chain.receipt(node, c.hash);
      if (r?.status !== 'confirmed' || r.block_height !== c.height)
        throw net.failure({
          node,
          height: c.height,
          expected: `the receipt of ${c.hash} confirmed at ${c.height} (seen so by ${c.by})`,
          found: r === null ? 'no receipt (404)' : `${r.status} at ${r.block_height}`,
        });
    });
  }
  return entries.length;
}
