/**
 * The market's state and every transition of a task (docs/MARKET.md, "Transitions"), in one
 * place, one at a time (a queue): HTTP requests (intake, claim, failure report) and the chain
 * follower's blocks never interleave. Each transition is one synced store batch; a completion or
 * failure writes its payout plan in the same batch (unless the float cannot pay the fees yet:
 * then at a later block). What the market answered is on disk before the answer.
 *
 * Chain time is the timestamp of the last block the market applied (`books.chain_time`):
 * deadlines, claims and completions are judged by the chain, never by this machine's clock.
 */
import { minFee, NETWORK_PARAMS, type Tx, txHash, txToJson } from '../chain/index.js';
import { floatOf } from './books.js';
import type { Payload } from './challenges.js';
import { type EscrowSigner, planPayouts, resign } from './payouts.js';
import { splitReward, withoutSelfPayment } from './split.js';
import {
  type ClaimRules,
  claimExpiry,
  claimLapsed,
  claimRefusal,
  DEFAULT_CLAIM_RULES,
  lapse,
} from './squatting.js';
import type { Books, MarketStore } from './store.js';
import { type Terms, taskIdOf } from './terms.js';
import { type DepositRecord, isLive, type PayoutRecord, type TaskRecord, type TaskStatus } from './types.js';

export const DEFAULT_TRANSFER_FEE = minFee('TRANSFER', NETWORK_PARAMS.devnet.minGasPrice);

export interface MarketRules extends ClaimRules {
  /** A task without a deadline gets created_at + this. */
  readonly defaultDeadlineSeconds: number;
  /** A deadline may be at most this far past the chain time when the task is posted. */
  readonly maxDeadlineSeconds: number;
}

export const DEFAULT_RULES: MarketRules = {
  defaultDeadlineSeconds: 86_400,
  maxDeadlineSeconds: 30 * 86_400,
  ...DEFAULT_CLAIM_RULES,
};

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

/** Compare by creation (chain time, then id): the order of GET /tasks. */
const byCreation = (a: TaskRecord, b: TaskRecord) =>
  a.created_at! - b.created_at! || (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0);

export class MarketService {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly deposits = new Map<string, DepositRecord>();
  /** Tasks (not funding) in creation order. */
  private listed: TaskRecord[] = [];
  /** Tasks in progress by worker address (the per-worker bound). */
  private readonly held = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: MarketStore,
    private booksNow: Books,
    readonly escrow: EscrowSigner,
    readonly rules: MarketRules,
    private readonly events: ServiceEvents,
  ) {}

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
    const s = new MarketService(store, books, escrow, rules, events);
    for (const t of await store.allTasks()) {
      // A claim recorded before claims could lapse lapses one window after it was taken.
      const w = t.worker;
      const fixed =
        w === null || w.expires_at !== undefined
          ? t
          : { ...t, worker: { ...w, expires_at: claimExpiry(w.claimed_at, t.deadline!, rules) } };
      s.tasks.set(t.task_id, fixed);
      s.count(fixed, 1);
    }
    for (const d of await store.allDeposits()) s.deposits.set(d.tx_hash, d);
    s.listed = [...s.tasks.values()].filter((t) => t.status !== 'funding').sort(byCreation);
    return s;
  }

  get books(): Books {
    return this.booksNow;
  }

  task(id: string): TaskRecord | undefined {
    return this.tasks.get(id);
  }

  /** Tasks (funding excluded) in creation order, filtered. */
  list(filter: { status?: TaskStatus; challenge_type?: string }): TaskRecord[] {
    return this.listed.filter(
      (t) =>
        (filter.status === undefined || t.status === filter.status) &&
        (filter.challenge_type === undefined || t.challenge_type === filter.challenge_type),
    );
  }

  allTasks(): Iterable<TaskRecord> {
    return this.tasks.values();
  }

  /** Whether a SUBMIT_RESULT for this task id concerns the market (the follower fetches more then). */
  knows(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  float(): bigint {
    return floatOf(
      BigInt(this.booksNow.balance),
      this.tasks.values(),
      this.deposits.values(),
      this.escrow.fee,
    );
  }

  /** Every planned payout not yet in a block, in nonce order. */
  unpaid(): PayoutRecord[] {
    const out: PayoutRecord[] = [];
    for (const t of this.tasks.values()) for (const p of t.payouts) if (p.status === 'planned') out.push(p);
    return out.sort((a, b) => a.nonce - b.nonce);
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Counts (+1) or uncounts (-1) a task in its worker's load while it is in progress. */
  private count(t: TaskRecord | undefined, by: 1 | -1): void {
    if (t?.status !== 'in_progress' || t.worker === null) return;
    const n = (this.held.get(t.worker.address) ?? 0) + by;
    if (n === 0) this.held.delete(t.worker.address);
    else this.held.set(t.worker.address, n);
  }

  private put(t: TaskRecord): void {
    const before = this.tasks.get(t.task_id);
    this.count(before, -1);
    this.count(t, 1);
    this.tasks.set(t.task_id, t);
    if (t.status === 'funding') return;
    if (before === undefined || before.status === 'funding') {
      // Usually the newest: insert from the end.
      let i = this.listed.length;
      while (i > 0 && byCreation(this.listed[i - 1]!, t) > 0) i--;
      this.listed.splice(i, 0, t);
    } else this.listed[this.listed.indexOf(before)] = t;
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
      const existing = this.tasks.get(id);
      if (existing !== undefined) return { kind: 'task', task: existing, created: false };
      const deposit = this.deposits.get(hash);
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
        payload: terms.payload as Payload,
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
      await this.store.write({ tasks: [task], deposits });
      for (const d of deposits) this.deposits.set(d.tx_hash, d);
      this.put(task);
      return { kind: 'task', task, created: true };
    });
  }

  /** The funding transaction was refused or failed: no task (only while it is still funding). */
  abandonFunding(id: string): Promise<void> {
    return this.serialized(async () => {
      if (this.tasks.get(id)?.status !== 'funding') return;
      await this.store.write({ removeTasks: [id] });
      this.tasks.delete(id);
    });
  }

  /** A valid claim (signature checked by the caller): pending -> in_progress; again by the same worker: the same. */
  claim(id: string, worker: { address: string; pub_key: string }): Promise<ClaimResult> {
    return this.serialized(async () => {
      const t = this.tasks.get(id);
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
      const refusal = claimRefusal(t, worker.address, this.held.get(worker.address) ?? 0, this.rules);
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
      await this.store.write({ tasks: [claimed] });
      this.put(claimed);
      return { kind: 'ok', task: claimed };
    });
  }

  /** The claiming worker's signed report (checked by the caller): in_progress -> failed, refund planned. */
  reportFailure(id: string, workerAddress: string): Promise<ClaimResult> {
    return this.serialized(async () => {
      const t = this.tasks.get(id);
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
      const failed = this.fail(t, 'reported');
      const planned = this.settle(failed);
      await this.store.write({ tasks: [planned.task], books: planned.books });
      this.booksNow = planned.books;
      this.put(planned.task);
      return { kind: 'ok', task: planned.task };
    });
  }

  /**
   * The node refused a planned payout for its nonce and the escrow's account nonce is past it:
   * that nonce is spent. `receipt` is the payout's own receipt, read after the account nonce.
   * Confirmed in a block the market has applied (one it took for something else: a store of a
   * market before issue 24's fix): it is paid. Not confirmed: another transaction took the
   * nonce (in a block the market did not see as such), so it is signed again with a fresh one.
   * Confirmed in a block not applied yet: the follower will see it; nothing to do.
   */
  payoutNonceSpent(
    hash: string,
    receipt: { readonly status: string; readonly block_height: number | null } | null,
  ): Promise<void> {
    return this.serialized(async () => {
      const t = [...this.tasks.values()].find((x) =>
        x.payouts.some((p) => p.status === 'planned' && p.tx_hash === hash),
      );
      if (t === undefined) return;
      const books = this.booksNow;
      const confirmed = receipt?.status === 'confirmed' && receipt.block_height !== null;
      if (confirmed && receipt.block_height! > books.cursor) return;
      let next = books.next_nonce;
      const payouts = t.payouts.map((p) => {
        if (p.tx_hash !== hash) return p;
        if (confirmed) {
          this.events.warn?.('a payout was in a block the market had applied without it: confirmed now', {
            task_id: t.task_id,
            tx_hash: hash,
            height: receipt.block_height,
          });
          const paid = { ...p, status: 'confirmed' as const, height: receipt.block_height };
          this.events.paid?.(paid);
          return paid;
        }
        const again = resign(this.escrow, t.task_id, p, next++);
        this.events.warn?.(
          'a payout lost its nonce to another transaction: signed again with a fresh nonce',
          {
            task_id: t.task_id,
            share: p.share,
            old_tx_hash: hash,
            tx_hash: again.tx_hash,
            nonce: again.nonce,
          },
        );
        return again;
      });
      const changed = { ...t, payouts };
      const after = { ...books, next_nonce: next };
      await this.store.write({ tasks: [changed], books: after });
      this.booksNow = after;
      this.put(changed);
    });
  }

  private fail(t: TaskRecord, reason: 'deadline' | 'reported'): TaskRecord {
    return {
      ...t,
      status: 'failed',
      failure: { reason, failed_at: this.booksNow.chain_time, height: this.booksNow.cursor },
    };
  }

  /**
   * The payout plan of a completed or failed task, when the float covers its fees: the split
   * (completed) or the refund (failed), nonces allocated from the books. Unchanged otherwise.
   */
  private settle(
    t: TaskRecord,
    books: Books = this.booksNow,
    float: bigint = this.float(),
  ): { task: TaskRecord; books: Books } {
    const reward = BigInt(t.reward);
    const parts = withoutSelfPayment(
      t.status === 'completed'
        ? splitReward(
            reward,
            t.result!.worker_address,
            t.result!.validators.map((v) => v.reward_address),
          )
        : [{ share: 'refund' as const, to: t.funding.from_address, amount: reward }],
      this.escrow.address,
    );
    const count = BigInt(parts.filter((p) => p.amount > 0n).length);
    if (float < count * this.escrow.fee) {
      this.events.warn?.('the float cannot pay the fees of a settlement: it waits', {
        task_id: t.task_id,
        float: float.toString(),
        fees: (count * this.escrow.fee).toString(),
      });
      return { task: t, books };
    }
    const payouts = planPayouts(this.escrow, t.task_id, parts, books.next_nonce, books.chain_time);
    return {
      task: { ...t, payouts },
      books: { ...books, next_nonce: books.next_nonce + payouts.length },
    };
  }

  /**
   * Applies one block (the next after the cursor): payments into the escrow, payouts out of it,
   * SUBMIT_RESULTs that complete tasks, then the deadlines; one batch with the new cursor.
   */
  applyBlock(b: FollowedBlock): Promise<void> {
    return this.serialized(async () => {
      if (b.height !== this.booksNow.cursor + 1)
        throw new Error(`block ${b.height} is not the next after the market's ${this.booksNow.cursor}`);
      const changed = new Map<string, TaskRecord>();
      const newDeposits: DepositRecord[] = [];
      const get = (id: string) => changed.get(id) ?? this.tasks.get(id);
      const set = (t: TaskRecord) => changed.set(t.task_id, t);
      let balance = BigInt(this.booksNow.balance);
      const escrow = this.escrow.address;
      const byPayoutHash = new Map<string, TaskRecord>();
      const byPayoutNonce = new Map<number, TaskRecord>();
      for (const t of this.tasks.values())
        for (const p of t.payouts)
          if (p.status === 'planned') {
            byPayoutHash.set(p.tx_hash, t);
            byPayoutNonce.set(p.nonce, t);
          }
      let nextNonce = this.booksNow.next_nonce;
      const removed: string[] = [];

      for (const { tx, hash, outcome } of b.txs) {
        if (tx.from === escrow && outcome !== null) {
          const owner = byPayoutHash.get(hash);
          // Its own payouts first, known by what the market signed, whatever their recipient: a
          // transfer from the escrow to the escrow is a payout too, never money in.
          if (outcome === 'confirmed') balance -= tx.fee + (tx.to === escrow ? 0n : tx.amount);
          if (owner === undefined) {
            // Not a payout: only one that executed took a nonce (a failed one moves none).
            if (outcome !== 'confirmed') continue;
            const victim = byPayoutNonce.get(tx.nonce);
            this.events.warn?.('a transfer from the escrow that the market did not plan', {
              tx_hash: hash,
              nonce: tx.nonce,
              ...(victim === undefined ? {} : { took_the_nonce_of_task: victim.task_id }),
            });
            if (victim === undefined) {
              nextNonce = Math.max(nextNonce, tx.nonce + 1);
              continue;
            }
            // Its nonce belonged to a planned payout, which can now never execute: that payout
            // is signed again with a fresh nonce (it was not paid, and its old signature never
            // can be).
            const t = get(victim.task_id)!;
            const fresh = nextNonce++;
            const payouts = t.payouts.map((p) => {
              if (p.status !== 'planned' || p.nonce !== tx.nonce) return p;
              const again = resign(this.escrow, t.task_id, p, fresh);
              this.events.warn?.(
                'a payout lost its nonce to that transfer: signed again with a fresh nonce',
                {
                  task_id: t.task_id,
                  share: p.share,
                  old_tx_hash: p.tx_hash,
                  tx_hash: again.tx_hash,
                  nonce: fresh,
                },
              );
              return again;
            });
            const renewed = { ...t, payouts };
            set(renewed);
            for (const p of payouts)
              if (p.status === 'planned') {
                byPayoutHash.set(p.tx_hash, renewed);
                byPayoutNonce.set(p.nonce, renewed);
              }
            byPayoutNonce.delete(tx.nonce);
            continue;
          }
          const t = get(owner.task_id)!;
          const payouts = t.payouts.map((p) => {
            if (p.tx_hash !== hash) return p;
            if (outcome === 'failed') {
              this.events.warn?.('a payout failed in a block: signed again with the same nonce', {
                task_id: t.task_id,
                tx_hash: hash,
              });
              return resign(this.escrow, t.task_id, p);
            }
            const paid = { ...p, status: 'confirmed' as const, height: b.height };
            this.events.paid?.(paid);
            return paid;
          });
          set({ ...t, payouts });
          continue;
        }
        if (tx.type === 'TRANSFER' && tx.to === escrow && outcome !== null) {
          const funding = [...this.tasks.values()].find(
            (t) => t.status === 'funding' && t.funding.tx_hash === hash,
          );
          if (outcome === 'failed') {
            // The payment failed: no task (its POST answers so; a retry finds no task and no money).
            if (funding !== undefined) removed.push(funding.task_id);
            continue;
          }
          balance += tx.amount;
          const memo = tx.payload.memo ?? '';
          // A payment without a market memo tops up the float.
          if (!memo.startsWith('market:')) continue;
          const d: DepositRecord = {
            tx_hash: hash,
            from_address: tx.from,
            amount: tx.amount.toString(),
            memo,
            height: b.height,
            timestamp: b.timestamp,
            task_id: funding?.task_id ?? null,
          };
          newDeposits.push(d);
          if (funding !== undefined) set(this.pendingFrom(funding, d));
          continue;
        }
        if (tx.type === 'SUBMIT_RESULT' && outcome === 'confirmed') {
          const t = get(tx.payload.taskId!);
          if (
            t === undefined ||
            t.status !== 'in_progress' ||
            t.worker?.address !== tx.from ||
            b.timestamp > t.deadline! ||
            b.timestamp > t.worker.expires_at
          )
            continue;
          if (b.signers === null)
            throw new Error(`block ${b.height} completes a task but came without its signers`);
          const done: TaskRecord = {
            ...t,
            status: 'completed',
            result: {
              result_hash: tx.payload.resultHash!,
              worker_address: tx.from,
              completed_at: b.timestamp,
              height: b.height,
              tx_hash: hash,
              validators: b.signers,
            },
          };
          set(done);
        }
      }

      // Deadlines: a task still pending or in progress after a block past its deadline fails;
      // a claim with no result by its expiry lapses (the task pending again).
      for (const t of [...this.tasks.values(), ...changed.values()]) {
        const now = get(t.task_id)!;
        if (isLive(now) && now.deadline! < b.timestamp) set(this.failAt(now, b));
        else if (claimLapsed(now, b.timestamp)) {
          this.events.warn?.('a claim lapsed without a result: the task is pending again', {
            task_id: now.task_id,
            worker: now.worker!.address,
          });
          set(lapse(now));
        }
      }

      // Plans, in task order, each from the books as the ones before left them.
      let books: Books = {
        ...this.booksNow,
        next_nonce: nextNonce,
        cursor: b.height,
        chain_time: b.timestamp,
        balance: balance.toString(),
      };
      const all = () =>
        [...new Map([...this.tasks, ...changed]).values()].filter((t) => !removed.includes(t.task_id));
      const deposits = () => [
        ...new Map([...this.deposits, ...newDeposits.map((d) => [d.tx_hash, d] as const)]).values(),
      ];
      for (const t of all()) {
        if ((t.status !== 'completed' && t.status !== 'failed') || t.payouts.length > 0) continue;
        const float = floatOf(balance, all(), deposits(), this.escrow.fee);
        const planned = this.settle(t, books, float);
        books = planned.books;
        set(planned.task);
      }

      await this.store.write({
        tasks: [...changed.values()],
        deposits: newDeposits,
        books,
        removeTasks: removed,
      });
      this.booksNow = books;
      for (const id of removed) this.tasks.delete(id);
      for (const d of newDeposits) this.deposits.set(d.tx_hash, d);
      for (const t of changed.values()) this.put(t);
    });
  }

  private failAt(t: TaskRecord, b: { height: number; timestamp: number }): TaskRecord {
    return {
      ...t,
      status: 'failed',
      failure: { reason: 'deadline', failed_at: b.timestamp, height: b.height },
    };
  }
}
