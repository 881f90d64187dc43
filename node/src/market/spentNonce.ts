/**
 * A planned payout whose nonce is spent (docs/MARKET.md, "Payouts exactly once"): the node
 * refused it for its nonce while the escrow's account nonce was past it, and its own receipt was
 * read after that nonce. Confirmed in a block the market has applied (one it took for something
 * else: a store of a market before issue 24's fix): it is paid. Not confirmed: another
 * transaction took the nonce (in a block the market did not see as such), so it is signed again
 * with a fresh one; its old signature can never execute. Confirmed in a block the market has
 * not applied yet: the follower will see it, nothing to do (null). Pure but for the signature.
 */
import { type EscrowSigner, resign } from './payouts.js';
import type { Books } from './store.js';
import type { PayoutRecord, TaskRecord } from './types.js';

export interface PayoutReceipt {
  readonly status: string;
  readonly block_height: number | null;
}

export function afterSpentNonce(
  t: TaskRecord,
  hash: string,
  receipt: PayoutReceipt | null,
  books: Books,
  escrow: EscrowSigner,
  warn: (msg: string, fields: Record<string, unknown>) => void,
): { task: TaskRecord; books: Books; paid: PayoutRecord[] } | null {
  if (!t.payouts.some((p) => p.status === 'planned' && p.tx_hash === hash)) return null;
  const height = receipt?.status === 'confirmed' ? receipt.block_height : null;
  if (height !== null && height > books.cursor) return null;
  let next = books.next_nonce;
  const paid: PayoutRecord[] = [];
  const payouts = t.payouts.map((p) => {
    if (p.tx_hash !== hash) return p;
    if (height !== null) {
      warn('a payout was in a block the market had applied without it: confirmed now', {
        task_id: t.task_id,
        tx_hash: hash,
        height,
      });
      const done = { ...p, status: 'confirmed' as const, height };
      paid.push(done);
      return done;
    }
    const again = resign(escrow, t.task_id, p, next++);
    warn('a payout lost its nonce to another transaction: signed again with a fresh nonce', {
      task_id: t.task_id,
      share: p.share,
      old_tx_hash: hash,
      tx_hash: again.tx_hash,
      nonce: again.nonce,
    });
    return again;
  });
  return { task: { ...t, payouts }, books: { ...books, next_nonce: next }, paid };
}
