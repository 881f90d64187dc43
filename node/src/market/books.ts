/**
 * The market's books (docs/MARKET.md, "Money"): one chain account, the escrow, holds both the
 * rewards creators paid in and the market's own float, which pays the fees of payouts and
 * refunds. The books keep them apart: every wei the market owes is counted, and only what is
 * left of the balance, the float, may go to fees. A plan whose fees the float cannot cover waits
 * (and the task with it) rather than touch a reward. Pure.
 */
import type { DepositRecord, TaskRecord } from './types.js';

/** Wei the escrow owes: rewards not yet paid out, unclaimed deposits, payouts not yet in a block. */
export function owed(tasks: Iterable<TaskRecord>, deposits: Iterable<DepositRecord>, fee: bigint): bigint {
  let sum = 0n;
  for (const t of tasks) {
    if (t.status === 'funding') continue;
    if (t.payouts.length === 0) {
      sum += BigInt(t.reward);
      continue;
    }
    for (const p of t.payouts) if (p.status === 'planned') sum += BigInt(p.amount) + fee;
  }
  for (const d of deposits) if (d.task_id === null) sum += BigInt(d.amount);
  return sum;
}

/** The float: the escrow's balance less everything it owes (negative only if the books are wrong). */
export function floatOf(
  balance: bigint,
  tasks: Iterable<TaskRecord>,
  deposits: Iterable<DepositRecord>,
  fee: bigint,
): bigint {
  return balance - owed(tasks, deposits, fee);
}
