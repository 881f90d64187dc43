/**
 * After a followed block's transactions (txs.ts): the deadlines it passed (a task still pending or
 * in progress fails; a claim with no result by its expiry lapses, the task pending again), then
 * the plans of the tasks settled, in the order they settled, each from the books as the ones
 * before left them (docs/MARKET.md, "Transitions").
 */
import { awaitsPlan } from '../live.js';
import { settle } from '../settle.js';
import { claimLapsed, lapse } from '../squatting.js';
import type { Books } from '../store.js';
import { isLive } from '../types.js';
import type { BlockDraft } from './draft.js';
import type { Warn } from './txs.js';
import type { BlockContext, FollowedBlock } from './types.js';

/**
 * Plans signed in one block at the most: signing is most of a settlement's cost (about half a
 * millisecond a payout), and the market answers nothing while a block is applied. Ten thousand
 * tasks failing at one deadline are planned over 40 blocks instead of freezing it for seconds;
 * the payer sends 32 at a time anyway.
 */
export const MAX_PLANS_PER_BLOCK = 256;

/**
 * The deadlines the block passed. The heaps give the tasks due; this block's own changes are
 * looked at too (a payment whose deadline is past). Returns what puts the heaps back.
 */
export function passDeadlines(d: BlockDraft, b: FollowedBlock, warn: Warn): () => void {
  const due = d.live.takeDue(b.timestamp);
  for (const id of new Set([...due.ids, ...d.changed.keys()])) {
    const now = d.get(id);
    if (now === undefined || d.removed.includes(id)) continue;
    if (isLive(now) && now.deadline! < b.timestamp)
      d.set({
        ...now,
        status: 'failed',
        failure: { reason: 'deadline', failed_at: b.timestamp, height: b.height },
      });
    else if (claimLapsed(now, b.timestamp)) {
      warn('a claim lapsed without a result: the task is pending again', {
        task_id: id,
        worker: now.worker!.address,
      });
      d.set(lapse(now));
    }
  }
  return due.restore;
}

/**
 * The plans of settled tasks; the first the float cannot pay the fees of waits, and those after
 * it with it; at most MAX_PLANS_PER_BLOCK, the rest at the next blocks. Returns the books after.
 */
export function planSettled(d: BlockDraft, ctx: BlockContext, b: FollowedBlock): Books {
  let books: Books = {
    ...ctx.books,
    cursor: b.height,
    chain_time: b.timestamp,
    balance: d.balance.toString(),
    next_nonce: d.nextNonce,
  };
  const float = () => d.balance - (d.live.owed + ctx.openOwed + d.owedDelta);
  const settled = [...d.changed.values()].filter(awaitsPlan).map((t) => t.task_id);
  let plans = 0;
  for (const id of new Set([...d.live.awaiting, ...settled])) {
    if (plans >= MAX_PLANS_PER_BLOCK) break;
    const t = d.get(id)!;
    if (!awaitsPlan(t)) continue;
    const s = settle(t, d.escrow, books, float());
    if (!s.planned) {
      ctx.warn('the float cannot pay the fees of a settlement: it waits', {
        task_id: id,
        float: float().toString(),
        fees: s.fees.toString(),
      });
      break;
    }
    books = s.books;
    d.set(s.task);
    plans++;
  }
  return books;
}
