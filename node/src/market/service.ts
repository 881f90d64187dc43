/**
 * The market's state and every transition of a task (docs/MARKET.md, "Transitions"), in one
 * place, one at a time (a queue): HTTP requests (intake, claim, failure report) and the chain
 * follower's blocks never interleave. Each transition is one synced store batch; a completion or
 * failure writes its payout plan in the same batch (unless the float cannot pay the fees yet:
 * then at a later block). What the market answered is on disk before the answer.
 *
 * Memory holds the live tasks only (live.ts); a settled task whose payouts are all confirmed
 * leaves it, and reads (GET /tasks, GET /tasks/{id}) find it in the store.
 *
 * Chain time is the timestamp of the last block the market applied (`books.chain_time`):
 * deadlines, claims and completions are judged by the chain, never by this machine's clock.
 */
import { type Tx, txHash, txToJson } from '../chain/index.js';
import { applyFollowedBlock, type FollowedBlock } from './block/block.js';
import type { Payload } from './challenges.js';
import { type ListFilter, listPrefix, recount, summaryOf, type TaskSummary } from './listing.js';
import { LiveTasks, retirable } from './live.js';
import type { EscrowSigner } from './payouts.js';
import type { MarketRules } from './rules.js';
import { settle } from './settle.js';
import { afterSpentNonce, type PayoutReceipt } from './spentNonce.js';
import { claimExpiry, claimRefusal } from './squatting.js';
import type { Books, Change, MarketStore, PaidTotals, Tallies } from './store.js';
import { addPaid, paidOf } from './tallies.js';
import { type Terms, taskIdOf } from './terms.js';
import type { DepositRecord, PayoutRecord, TaskRecord } from './types.js';

export type { FollowedBlock, FollowedTx } from './block/block.js';

export type IntakeResult =
  | { readonly kind: 'task'; readonly task: TaskRecord; readonly created: boolean }
  | { readonly kind: 'bad_deadline'; readonly detail: string };

export type ClaimResult =
  | { readonly kind: 'ok'; readonly task: TaskRecord }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'conflict'; readonly detail: string };

export interface ServiceEvents {
  /** A planned payout reached a block. */
  paid?(p: PayoutRecord): void;
  warn?(msg: string, fields: Record<string, unknown>): void;
}

export class MarketService {
  private readonly live: LiveTasks;
  /** Payments into the escrow no task has named yet, and their sum (owed). */
  private readonly openDeposits = new Map<string, DepositRecord>();
  private openOwed = 0n;
  private readonly counts: Map<string, number>;
  private readonly paidTotals: Record<string, { count: number; wei: string }>;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: MarketStore,
    private booksNow: Books,
    tallies: Tallies,
    readonly escrow: EscrowSigner,
    readonly rules: MarketRules,
    private readonly events: ServiceEvents,
  ) {
    this.live = new LiveTasks(escrow.fee);
    this.counts = new Map(Object.entries(tallies.counts));
    this.paidTotals = { ...tallies.paid };
  }

  /** Loads the store; `books` is used only for a store that has none yet (its first start). */
  static async open(
    store: MarketStore,
    escrow: EscrowSigner,
    rules: MarketRules,
    initialBooks: () => Promise<Books>,
    events: ServiceEvents = {},
  ): Promise<MarketService> {
    let books = await store.books();
    if (books === null) {
      books = await initialBooks();
      await store.write({ books });
    }
    if (books.chain_id !== escrow.chainId || books.escrow !== escrow.address)
      throw new Error(
        `the market's store belongs to escrow ${books.escrow} on ${books.chain_id}, not ${escrow.address} on ${escrow.chainId}: use another --home`,
      );
    await store.upgrade(paidOf, (t) => !retirable(t));
    const s = new MarketService(store, books, await store.tallies(), escrow, rules, events);
    for (const t of await store.liveTasks()) {
      // A claim recorded before claims could lapse lapses one window after it was taken.
      const w = t.worker;
      s.live.put(
        w === null || w.expires_at !== undefined
          ? t
          : { ...t, worker: { ...w, expires_at: claimExpiry(w.claimed_at, t.deadline!, rules) } },
      );
    }
    for (const d of await store.openDeposits()) {
      s.openDeposits.set(d.tx_hash, d);
      s.openOwed += BigInt(d.amount);
    }
    return s;
  }

  get books(): Books {
    return this.booksNow;
  }

  /** A task, live or settled (from the store). */
  async task(id: string): Promise<TaskRecord | undefined> {
    return this.live.get(id) ?? (await this.store.task(id)) ?? undefined;
  }

  /** A task's payload (kept apart from it: types.ts). */
  async payload(id: string): Promise<Payload | null> {
    return this.store.payload(id);
  }

  /** GET /tasks: one page in creation order, and how many match. */
  async list(
    filter: ListFilter,
    offset: number,
    limit: number,
  ): Promise<{ tasks: TaskSummary[]; total: number }> {
    return {
      tasks: await this.store.page(filter, offset, limit),
      total: this.counts.get(listPrefix(filter)) ?? 0,
    };
  }

  /** Tasks by `status/challenge_type` (the tasks gauge). */
  taskCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [prefix, n] of this.counts)
      if (prefix.startsWith('st!') && n > 0) out.set(prefix.slice(3, -1).replace('!', '/'), n);
    return out;
  }

  /** Confirmed payouts by share since the store began. */
  paid(): PaidTotals {
    return this.paidTotals;
  }

  /** How many tasks memory holds (the live ones). */
  get liveCount(): number {
    return this.live.size;
  }

  /** Whether a SUBMIT_RESULT for this task id concerns the market (the follower fetches more then). */
  knows(taskId: string): boolean {
    return this.live.get(taskId) !== undefined;
  }

  /** The float: the escrow's balance less everything it owes. */
  float(): bigint {
    return BigInt(this.booksNow.balance) - this.live.owed - this.openOwed;
  }

  /** Every planned payout not yet in a block, in nonce order. */
  unpaid(): PayoutRecord[] {
    return this.live.unpaid();
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Writes changed tasks (with the listing and tallies they change) and whatever else `extra`
   * carries, then takes them into memory: a task that is settled and paid leaves it.
   */
  private async commit(
    tasks: readonly TaskRecord[],
    extra: Omit<Change, 'tasks' | 'listed' | 'retire' | 'tallies'> = {},
    paid: readonly PayoutRecord[] = [],
  ): Promise<void> {
    const listed = tasks.map((t) => ({ before: summaryOf(this.live.get(t.task_id)), after: summaryOf(t) }));
    const counts = new Map(this.counts);
    for (const l of listed) recount(counts, l.before, l.after);
    const totals = { ...this.paidTotals };
    for (const p of paid) addPaid(totals, p);
    const retire = tasks.filter(retirable).map((t) => t.task_id);
    await this.store.write({
      ...extra,
      tasks,
      listed,
      retire,
      tallies: { counts: Object.fromEntries(counts), paid: totals },
    });
    for (const [k, v] of counts) this.counts.set(k, v);
    Object.assign(this.paidTotals, totals);
    const retired = new Set(retire);
    for (const t of tasks) {
      if (retired.has(t.task_id)) this.live.remove(t.task_id);
      else this.live.put(t);
    }
    for (const p of paid) this.events.paid?.(p);
  }

  private pendingFrom(t: TaskRecord, d: DepositRecord): TaskRecord {
    return {
      ...t,
      status: 'pending',
      created_at: d.timestamp,
      created_height: d.height,
      deadline: t.terms_deadline ?? d.timestamp + this.rules.defaultDeadlineSeconds,
    };
  }

  /**
   * POST /tasks after its checks: the task of this funding transaction (created, or the one it
   * already made), or why its deadline is refused. A payment already final on chain makes the
   * task pending at once; otherwise it waits in `funding` for the follower to see it final.
   */
  intake(terms: Terms, funding: Tx): Promise<IntakeResult> {
    return this.serialized(async () => {
      const hash = txHash(funding, this.escrow.chainId);
      const id = taskIdOf(hash);
      const existing = await this.task(id);
      if (existing !== undefined) return { kind: 'task', task: existing, created: false };
      const deposit = this.openDeposits.get(hash);
      // Only money not yet paid can still be turned away; a deadline already past then fails the
      // task at the next block, and its creator is refunded.
      if (deposit === undefined && terms.deadline !== null) {
        const now = this.booksNow.chain_time;
        if (terms.deadline <= now)
          return { kind: 'bad_deadline', detail: `deadline must be after the chain time ${now}` };
        if (terms.deadline > now + this.rules.maxDeadlineSeconds)
          return {
            kind: 'bad_deadline',
            detail: `deadline must be at most ${this.rules.maxDeadlineSeconds} s after the chain time ${now}`,
          };
      }
      const funded: TaskRecord = {
        task_id: id,
        challenge_type: terms.challengeType,
        reward: terms.reward.toString(),
        terms_deadline: terms.deadline,
        status: 'funding',
        funding: { tx_hash: hash, from_address: funding.from, tx: txToJson(funding) },
        created_at: null,
        created_height: null,
        deadline: null,
        worker: null,
        result: null,
        failure: null,
        payouts: [],
      };
      const task = deposit === undefined ? funded : this.pendingFrom(funded, deposit);
      const deposits = deposit === undefined ? [] : [{ ...deposit, task_id: id }];
      await this.commit([task], { deposits, payloads: [{ task_id: id, payload: terms.payload as Payload }] });
      for (const d of deposits) {
        this.openDeposits.delete(d.tx_hash);
        this.openOwed -= BigInt(d.amount);
      }
      return { kind: 'task', task, created: true };
    });
  }

  /** The funding transaction was refused or failed: no task (only while it is still funding). */
  abandonFunding(id: string): Promise<void> {
    return this.serialized(async () => {
      if (this.live.get(id)?.status !== 'funding') return;
      await this.store.write({ removeTasks: [id] });
      this.live.remove(id);
    });
  }

  /** A valid claim (signature checked by the caller): pending -> in_progress; again by the same worker: the same. */
  claim(id: string, worker: { address: string; pub_key: string }): Promise<ClaimResult> {
    return this.serialized(async () => {
      const t = await this.task(id);
      if (t === undefined || t.status === 'funding') return { kind: 'not_found' };
      if (t.status === 'in_progress' && t.worker?.address === worker.address) return { kind: 'ok', task: t };
      if (t.status !== 'pending')
        return {
          kind: 'conflict',
          detail:
            t.status === 'in_progress'
              ? 'Task already claimed by another worker'
              : `Task is ${t.status}: it cannot be claimed`,
        };
      const refusal = claimRefusal(t, worker.address, this.live.heldBy(worker.address), this.rules);
      if (refusal !== null) return { kind: 'conflict', detail: refusal };
      const claimed: TaskRecord = {
        ...t,
        status: 'in_progress',
        worker: {
          address: worker.address,
          pub_key: worker.pub_key,
          claimed_height: this.booksNow.cursor,
          claimed_at: this.booksNow.chain_time,
          expires_at: claimExpiry(this.booksNow.chain_time, t.deadline!, this.rules),
        },
      };
      await this.commit([claimed]);
      return { kind: 'ok', task: claimed };
    });
  }

  /** The claiming worker's signed report (checked by the caller): in_progress -> failed, refund planned. */
  reportFailure(id: string, workerAddress: string): Promise<ClaimResult> {
    return this.serialized(async () => {
      const t = await this.task(id);
      if (t === undefined || t.status === 'funding') return { kind: 'not_found' };
      if (t.status === 'failed' && t.failure?.reason === 'reported' && t.worker?.address === workerAddress)
        return { kind: 'ok', task: t };
      if (t.status !== 'in_progress')
        return {
          kind: 'conflict',
          detail: `Task is ${t.status}: only a task in progress can be reported failed`,
        };
      if (t.worker?.address !== workerAddress)
        return { kind: 'conflict', detail: 'Only the worker that claimed the task can report it failed' };
      const failed: TaskRecord = {
        ...t,
        status: 'failed',
        failure: { reason: 'reported', failed_at: this.booksNow.chain_time, height: this.booksNow.cursor },
      };
      // Its reward is owed until planned: the float is the same with it failed.
      const s = settle(failed, this.escrow, this.booksNow, this.float());
      if (!s.planned)
        this.events.warn?.('the float cannot pay the fees of a settlement: it waits', {
          task_id: id,
          float: this.float().toString(),
          fees: s.fees.toString(),
        });
      const task = s.planned ? s.task : failed;
      const books = s.planned ? s.books : this.booksNow;
      await this.commit([task], { books });
      this.booksNow = books;
      return { kind: 'ok', task };
    });
  }

  /**
   * The node refused a planned payout for its nonce and the escrow's account nonce is past it
   * (the payer read that, then the payout's `receipt`): see spentNonce.ts.
   */
  payoutNonceSpent(hash: string, receipt: PayoutReceipt | null): Promise<void> {
    return this.serialized(async () => {
      const t = this.live.get(this.live.payoutOwner({ hash }) ?? '');
      if (t === undefined) return;
      const r = afterSpentNonce(t, hash, receipt, this.booksNow, this.escrow, (msg, fields) =>
        this.events.warn?.(msg, fields),
      );
      if (r === null) return;
      await this.commit([r.task], { books: r.books }, r.paid);
      this.booksNow = r.books;
    });
  }

  /**
   * Applies one block (the next after the cursor): payments into the escrow, payouts out of it,
   * SUBMIT_RESULTs that complete tasks, then the deadlines and lapsed claims, then the plans;
   * one batch with the new cursor (block.ts).
   */
  applyBlock(b: FollowedBlock): Promise<void> {
    return this.serialized(async () => {
      if (b.height !== this.booksNow.cursor + 1)
        throw new Error(`block ${b.height} is not the next after the market's ${this.booksNow.cursor}`);
      const c = applyFollowedBlock(
        {
          live: this.live,
          openOwed: this.openOwed,
          books: this.booksNow,
          escrow: this.escrow,
          pendingFrom: (t, d) => this.pendingFrom(t, d),
          warn: (msg, fields) => this.events.warn?.(msg, fields),
        },
        b,
      );
      try {
        await this.commit(c.tasks, { deposits: c.deposits, books: c.books, removeTasks: c.removed }, c.paid);
      } catch (e) {
        c.restore();
        throw e;
      }
      this.booksNow = c.books;
      for (const id of c.removed) this.live.remove(id);
      for (const d of c.deposits)
        if (d.task_id === null) {
          this.openDeposits.set(d.tx_hash, d);
          this.openOwed += BigInt(d.amount);
        }
    });
  }
}
