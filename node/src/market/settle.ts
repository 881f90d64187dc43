/**
 * The payout plan of a completed or failed task (docs/MARKET.md, "Money"), when the float covers
 * its fees: the split (completed) or the refund (failed), with no payment to the escrow itself,
 * each share signed with the next nonces of the books. Pure but for the signatures.
 */
import { type EscrowSigner, planPayouts } from './payouts.js';
import { splitReward, withoutSelfPayment } from './split.js';
import type { Books } from './store.js';
import type { TaskRecord } from './types.js';

export type Settlement =
  | { readonly planned: true; readonly task: TaskRecord; readonly books: Books }
  | { readonly planned: false; readonly fees: bigint };

export function settle(t: TaskRecord, escrow: EscrowSigner, books: Books, float: bigint): Settlement {
  const reward = BigInt(t.reward);
  const parts = withoutSelfPayment(
    t.status === 'completed'
      ? splitReward(
          reward,
          t.result!.worker_address,
          t.result!.validators.map((v) => v.reward_address),
        )
      : [{ share: 'refund' as const, to: t.funding.from_address, amount: reward }],
    escrow.address,
  );
  const fees = BigInt(parts.filter((p) => p.amount > 0n).length) * escrow.fee;
  if (float < fees) return { planned: false, fees };
  const payouts = planPayouts(escrow, t.task_id, parts, books.next_nonce, books.chain_time);
  return {
    planned: true,
    task: { ...t, payouts },
    books: { ...books, next_nonce: books.next_nonce + payouts.length },
  };
}
