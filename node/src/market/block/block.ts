/**
 * One followed block applied to the live tasks (docs/MARKET.md, "Transitions" and "Money"), as a
 * set of changes the service writes in one batch: payments into the escrow, payouts out of it
 * (known by what the market signed, whatever their recipient; a nonce another sender took
 * re-signs its payout), SUBMIT_RESULTs that complete tasks, then deadlines and lapsed claims,
 * then the plans of settled tasks in the order they settled. Every lookup goes through an
 * index (live.ts), so a block costs what it settles. The rules of each part: txs.ts (the
 * transactions), settlement.ts (deadlines and plans); draft.ts holds the changes as they are made.
 */
import { BlockDraft } from './draft.js';
import { passDeadlines, planSettled } from './settlement.js';
import { fromEscrow, intoEscrow, submitResult } from './txs.js';
import type { BlockChanges, BlockContext, FollowedBlock } from './types.js';

export { MAX_PLANS_PER_BLOCK } from './settlement.js';

export type { BlockChanges, BlockContext, FollowedBlock, FollowedTx } from './types.js';

/** The block's changes: its transactions, each by its kind (txs.ts), then deadlines and plans (settlement.ts). */
export function applyFollowedBlock(ctx: BlockContext, b: FollowedBlock): BlockChanges {
  const d = new BlockDraft(ctx.live, ctx.escrow, ctx.books);
  for (const t of b.txs) {
    if (t.outcome === null) continue;
    // The escrow's own transactions first: a transfer from it to itself is a payout, not money in.
    if (t.tx.from === ctx.escrow.address) fromEscrow(d, t, b.height, ctx.warn);
    else if (t.tx.type === 'TRANSFER' && t.tx.to === ctx.escrow.address) intoEscrow(d, t, b, ctx.pendingFrom);
    else if (t.tx.type === 'SUBMIT_RESULT' && t.outcome === 'confirmed') submitResult(d, t, b);
  }
  const restore = passDeadlines(d, b, ctx.warn);
  const books = planSettled(d, ctx, b);
  return {
    tasks: [...d.changed.values()],
    removed: d.removed,
    deposits: d.deposits,
    books,
    paid: d.paid,
    restore,
  };
}
