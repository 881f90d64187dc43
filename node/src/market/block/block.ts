/**
 * One followed block applied to the live tasks (docs/MARKET.md, "Transitions" and "Money"), as a
 * set of changes the service writes in one batch: payments into the escrow, payouts out of it
 * (known by what the market signed, whatever their recipient; a nonce another sender took
 * re-signs its payout), SUBMIT_RESULTs that complete tasks, then deadlines and lapsed claims,
 * then the plans of settled tasks in the order they settled. Every lookup goes through an
 * index (live.ts), so a block costs what it settles. The rules of each part: txs.ts (the
 * transactions), settlement.ts (deadlines and plans); draft.ts holds the changes as they are made.
 */
import type { Tx } from '../../chain/index.js';
import type { LiveTasks } from '../live.js';
import type { EscrowSigner } from '../payouts.js';
import type { Books } from '../store.js';
import type { DepositRecord, PayoutRecord, TaskRecord } from '../types.js';
import { BlockDraft } from './draft.js';
import { passDeadlines, planSettled } from './settlement.js';
import { fromEscrow, intoEscrow, submitResult } from './txs.js';

export { MAX_PLANS_PER_BLOCK } from './settlement.js';

/** A transaction of a followed block, with its outcome where the market needed it. */
export interface FollowedTx {
  readonly tx: Tx;
  readonly hash: string;
  /** 'confirmed' or 'failed' (in the block); null when the market did not ask (not its business). */
  readonly outcome: 'confirmed' | 'failed' | null;
}

export interface FollowedBlock {
  readonly height: number;
  readonly timestamp: number;
  readonly txs: readonly FollowedTx[];
  /** The commit's signers and their reward addresses, fetched when a SUBMIT_RESULT names a known task. */
  readonly signers: readonly { readonly validator: string; readonly reward_address: string }[] | null;
}

export interface BlockContext {
  readonly live: LiveTasks;
  /** What the payments no task has named yet add to what the escrow owes. */
  readonly openOwed: bigint;
  readonly books: Books;
  readonly escrow: EscrowSigner;
  /** The task a payment makes pending (its created_at and deadline set). */
  readonly pendingFrom: (t: TaskRecord, d: DepositRecord) => TaskRecord;
  readonly warn: (msg: string, fields: Record<string, unknown>) => void;
}

export interface BlockChanges {
  readonly tasks: TaskRecord[];
  /** Funding tasks whose payment failed: no task. */
  readonly removed: string[];
  readonly deposits: DepositRecord[];
  readonly books: Books;
  /** Payouts this block confirmed. */
  readonly paid: PayoutRecord[];
  /** Puts back what was taken from the heaps, if the changes are not written. */
  readonly restore: () => void;
}

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
