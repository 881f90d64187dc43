/**
 * One followed block's changes while they are made (block.ts): the tasks it changed (looked up
 * before the live set), what the escrow owes and holds as it goes, its next nonce, and the payouts
 * signed again in it (not in live's indexes yet). The transactions, deadlines and plans of the
 * block each write through it (txs.ts, settlement.ts).
 */
import { type LiveTasks, owedFor } from '../live.js';
import type { EscrowSigner } from '../payouts.js';
import type { Books } from '../store.js';
import type { DepositRecord, PayoutRecord, TaskRecord } from '../types.js';

/** A planned payout, by the hash its signature gives or by its nonce. */
export type PayoutKey = { readonly hash: string } | { readonly nonce: number };

const matches = (p: PayoutRecord, k: PayoutKey) =>
  p.status === 'planned' && ('hash' in k ? p.tx_hash === k.hash : p.nonce === k.nonce);

export class BlockDraft {
  readonly changed = new Map<string, TaskRecord>();
  readonly deposits: DepositRecord[] = [];
  readonly removed: string[] = [];
  /** Payouts this block confirmed. */
  readonly paid: PayoutRecord[] = [];
  /** What the escrow owes, as this block changes it (live.owed and the open payments' are before it). */
  owedDelta = 0n;
  balance: bigint;
  nextNonce: number;
  /** Payouts signed again in this block, by hash and by `#nonce`, to their task. */
  private readonly resigned = new Map<string, string>();

  constructor(
    readonly live: LiveTasks,
    readonly escrow: EscrowSigner,
    books: Books,
  ) {
    this.balance = BigInt(books.balance);
    this.nextNonce = books.next_nonce;
  }

  /** The task as this block has left it so far. */
  get(id: string): TaskRecord | undefined {
    return this.changed.get(id) ?? this.live.get(id);
  }

  /** Records a task's new state: what the escrow owes for it, and its planned payouts' keys. */
  set(t: TaskRecord): void {
    this.owedDelta += owedFor(t, this.escrow.fee) - owedFor(this.get(t.task_id), this.escrow.fee);
    this.changed.set(t.task_id, t);
    for (const p of t.payouts)
      if (p.status === 'planned') {
        this.resigned.set(p.tx_hash, t.task_id);
        this.resigned.set(`#${p.nonce}`, t.task_id);
      }
  }

  /** The task whose planned payout has this hash or nonce, or undefined. */
  ownerOf(k: PayoutKey): TaskRecord | undefined {
    const id = this.resigned.get('hash' in k ? k.hash : `#${k.nonce}`) ?? this.live.payoutOwner(k);
    const t = id === undefined ? undefined : this.get(id);
    return t?.payouts.some((p) => matches(p, k)) ? t : undefined;
  }

  /** Whether `p` is the planned payout `k` names. */
  static matches = matches;
}
