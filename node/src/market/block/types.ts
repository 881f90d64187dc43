/** The shapes of a followed block and of what applying it gives (block.ts), shared by its parts. */
import type { Tx } from '../../chain/index.js';
import type { LiveTasks } from '../live.js';
import type { EscrowSigner } from '../payouts.js';
import type { Books } from '../store.js';
import type { DepositRecord, PayoutRecord, TaskRecord } from '../types.js';

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
