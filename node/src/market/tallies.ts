/** Confirmed payouts by share (the payout metrics start from them after a restart). Pure. */
import type { PaidTotals } from './store.js';
import type { PayoutRecord, TaskRecord } from './types.js';

/** Adds one confirmed payout to the totals, in place. */
export function addPaid(totals: Record<string, { count: number; wei: string }>, p: PayoutRecord): void {
  const before = totals[p.share] ?? { count: 0, wei: '0' };
  totals[p.share] = { count: before.count + 1, wei: (BigInt(before.wei) + BigInt(p.amount)).toString() };
}

/** The confirmed payouts of these tasks by share (a store's first count of them). */
export function paidOf(tasks: readonly TaskRecord[]): PaidTotals {
  const out: Record<string, { count: number; wei: string }> = {};
  for (const t of tasks) for (const p of t.payouts) if (p.status === 'confirmed') addPaid(out, p);
  return out;
}
