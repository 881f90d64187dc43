/**
 * The tasks the market still acts on, in memory, with the indexes that let a block cost what it
 * settles rather than what the market ever held (issue 24, item 4): funding transactions by
 * hash, planned payouts by hash and by nonce, deadlines and claim expiries in heaps, tasks
 * waiting for a plan, each worker's tasks in progress, and what the escrow owes for them (a
 * running sum, docs/MARKET.md "Money"). A settled task whose payouts are all confirmed leaves
 * (`retirable`); the store keeps it.
 */
import { DueHeap } from './heap.js';
import { isLive, type PayoutRecord, type TaskRecord } from './types.js';

/** Wei the escrow owes for one task: its reward until planned, then its planned payouts and their fees. */
export function owedFor(t: TaskRecord | undefined, fee: bigint): bigint {
  if (t === undefined || t.status === 'funding') return 0n;
  if (t.payouts.length === 0) return BigInt(t.reward);
  let sum = 0n;
  for (const p of t.payouts) if (p.status === 'planned') sum += BigInt(p.amount) + fee;
  return sum;
}

/** Settled, planned, every payout in a block: nothing more will happen to it. */
export const retirable = (t: TaskRecord): boolean =>
  (t.status === 'completed' || t.status === 'failed') &&
  t.payouts.length > 0 &&
  t.payouts.every((p) => p.status === 'confirmed');

/** Completed or failed, its plan not made yet (the float could not pay its fees). */
export const awaitsPlan = (t: TaskRecord): boolean =>
  (t.status === 'completed' || t.status === 'failed') && t.payouts.length === 0;

export class LiveTasks {
  private readonly byId = new Map<string, TaskRecord>();
  private readonly fundingByHash = new Map<string, string>();
  private readonly payoutByHash = new Map<string, string>();
  private readonly payoutByNonce = new Map<number, string>();
  private readonly deadlines = new DueHeap();
  private readonly expiries = new DueHeap();
  /** Tasks awaiting their plan, in the order they settled. */
  readonly awaiting = new Set<string>();
  /** Tasks in progress by worker address. */
  private readonly held = new Map<string, number>();
  /** What the escrow owes for these tasks (owedFor summed). */
  owed = 0n;

  constructor(private readonly fee: bigint) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): TaskRecord | undefined {
    return this.byId.get(id);
  }

  heldBy(worker: string): number {
    return this.held.get(worker) ?? 0;
  }

  /** The task whose funding transaction this is, while it is still funding. */
  fundingOf(hash: string): TaskRecord | undefined {
    const t = this.byId.get(this.fundingByHash.get(hash) ?? '');
    return t?.status === 'funding' && t.funding.tx_hash === hash ? t : undefined;
  }

  /** The task with a planned payout of this hash (or, `nonce` given, of this nonce). */
  payoutOwner(key: { hash: string } | { nonce: number }): string | undefined {
    return 'hash' in key ? this.payoutByHash.get(key.hash) : this.payoutByNonce.get(key.nonce);
  }

  /** Adds or replaces a task, every index with it. */
  put(t: TaskRecord): void {
    const before = this.byId.get(t.task_id);
    this.unindex(before);
    this.byId.set(t.task_id, t);
    if (t.status === 'funding') this.fundingByHash.set(t.funding.tx_hash, t.task_id);
    for (const p of t.payouts)
      if (p.status === 'planned') {
        this.payoutByHash.set(p.tx_hash, t.task_id);
        this.payoutByNonce.set(p.nonce, t.task_id);
      }
    if (isLive(t) && (before === undefined || !isLive(before)))
      this.deadlines.push({ at: t.deadline!, id: t.task_id });
    if (t.status === 'in_progress' && t.worker !== null) {
      if (before?.worker?.expires_at !== t.worker.expires_at)
        this.expiries.push({ at: t.worker.expires_at, id: t.task_id });
      this.held.set(t.worker.address, this.heldBy(t.worker.address) + 1);
    }
    if (awaitsPlan(t)) this.awaiting.add(t.task_id);
    this.owed += owedFor(t, this.fee);
  }

  remove(id: string): void {
    this.unindex(this.byId.get(id));
    this.byId.delete(id);
  }

  /** Takes a task out of every index but the heaps (whose entries are checked when due). */
  private unindex(t: TaskRecord | undefined): void {
    if (t === undefined) return;
    if (t.status === 'funding') this.fundingByHash.delete(t.funding.tx_hash);
    for (const p of t.payouts) {
      if (this.payoutByHash.get(p.tx_hash) === t.task_id) this.payoutByHash.delete(p.tx_hash);
      if (this.payoutByNonce.get(p.nonce) === t.task_id) this.payoutByNonce.delete(p.nonce);
    }
    if (t.status === 'in_progress' && t.worker !== null) {
      const n = this.heldBy(t.worker.address) - 1;
      if (n === 0) this.held.delete(t.worker.address);
      else this.held.set(t.worker.address, n);
    }
    this.awaiting.delete(t.task_id);
    this.owed -= owedFor(t, this.fee);
  }

  /**
   * The ids of tasks whose deadline or claim expiry is before `timestamp`, taken from the
   * heaps (stale entries included: the caller checks each task). `restore` puts them back
   * (a block that was not written).
   */
  takeDue(timestamp: number): { ids: string[]; restore: () => void } {
    const deadlines = this.deadlines.popBefore(timestamp);
    const expiries = this.expiries.popBefore(timestamp);
    return {
      ids: [...new Set([...deadlines, ...expiries].map((d) => d.id))],
      restore: () => {
        for (const d of deadlines) this.deadlines.push(d);
        for (const d of expiries) this.expiries.push(d);
      },
    };
  }

  /** Every planned payout, in nonce order. */
  unpaid(): PayoutRecord[] {
    const nonces = [...this.payoutByNonce.keys()].sort((a, b) => a - b);
    const out: PayoutRecord[] = [];
    for (const n of nonces) {
      const p = this.byId
        .get(this.payoutByNonce.get(n)!)
        ?.payouts.find((x) => x.status === 'planned' && x.nonce === n);
      if (p !== undefined) out.push(p);
    }
    return out;
  }

  values(): IterableIterator<TaskRecord> {
    return this.byId.values();
  }
}
