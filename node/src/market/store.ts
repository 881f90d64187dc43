/**
 * The market's own store (level): tasks, escrow deposits, the list index and its books, each
 * change one atomic batch written with `sync` (fsync before it is acknowledged), so that what
 * the market answered survives a crash and a payout plan is on disk before any of its transfers
 * is sent.
 *
 * Sublevels (values JSON): `tasks` every task by task_id, `payloads` their payloads (apart, so
 * that memory holds none); `live` the ids of the tasks the market
 * still acts on (loaded at start; a settled task whose payouts are all confirmed leaves it);
 * `list` GET /tasks's index (listing.ts); `deposits` payments into the escrow by tx_hash, and
 * `open` the hashes of those no task has named yet; `meta` the books, the list counts, the
 * confirmed payouts' totals and the layout version.
 */
import type { AbstractSublevel } from 'abstract-level';
import { Level } from 'level';
import type { Payload } from './challenges.js';
import {
  type ListFilter,
  listPrefix,
  orderKey,
  prefixesOf,
  sameListing,
  summaryOf,
  type TaskSummary,
} from './listing.js';
import type { DepositRecord, TaskRecord } from './types.js';

type Sub = AbstractSublevel<Level<string, string>, string | Buffer | Uint8Array, string, string>;

/** What the market knows of the chain and its escrow account, as of block `cursor`. */
export interface Books {
  readonly chain_id: string;
  readonly escrow: string;
  /** The last block the market has applied. */
  readonly cursor: number;
  /** The escrow account's balance after block `cursor` (wei), kept from the blocks. */
  readonly balance: string;
  /** The escrow's next unallocated nonce. */
  readonly next_nonce: number;
  /** That block's timestamp: the market's chain time. */
  readonly chain_time: number;
}

/** Confirmed payouts by share: how many, and their wei (decimal). */
export type PaidTotals = Record<string, { readonly count: number; readonly wei: string }>;

/** Running totals kept beside the books, so that a start reads no settled task. */
export interface Tallies {
  /** Tasks listed under each list prefix (listing.ts). */
  readonly counts: Record<string, number>;
  readonly paid: PaidTotals;
}

export interface Change {
  /** Tasks written; each stays live unless also in `retire`. */
  readonly tasks?: readonly TaskRecord[];
  /** Tasks that leave memory (settled, every payout confirmed): kept, no longer live. */
  readonly retire?: readonly string[];
  readonly removeTasks?: readonly string[];
  /** Payloads of new tasks (written once; removed with their task). */
  readonly payloads?: readonly { readonly task_id: string; readonly payload: Payload }[];
  /** Each task's listing before and after (listing.ts), where it changed. */
  readonly listed?: readonly { readonly before: TaskSummary | null; readonly after: TaskSummary | null }[];
  readonly deposits?: readonly DepositRecord[];
  readonly books?: Books;
  readonly tallies?: Tallies;
}

/** The layout this code writes: 2 added `live`, `list`, `open` and the tallies (issue 24). */
const VERSION = 2;

export class MarketStore {
  private readonly tasks: Sub;
  private readonly payloads: Sub;
  private readonly live: Sub;
  private readonly list: Sub;
  private readonly deposits: Sub;
  private readonly open: Sub;
  private readonly meta: Sub;

  private constructor(private readonly db: Level<string, string>) {
    const sub = (name: string) => db.sublevel<string, string>(name, { valueEncoding: 'utf8' });
    this.tasks = sub('tasks');
    this.payloads = sub('payloads');
    this.live = sub('live');
    this.list = sub('list');
    this.deposits = sub('deposits');
    this.open = sub('open');
    this.meta = sub('meta');
  }

  static async open(path: string): Promise<MarketStore> {
    const db = new Level<string, string>(path, { valueEncoding: 'utf8' });
    try {
      await db.open();
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new Error(`cannot open the market's store at ${path}: ${cause}`);
    }
    return new MarketStore(db);
  }

  private async json<T>(sub: Sub, key: string): Promise<T | null> {
    const raw = await sub.get(key);
    return raw === undefined ? null : (JSON.parse(raw) as T);
  }

  books(): Promise<Books | null> {
    return this.json<Books>(this.meta, 'books');
  }

  async tallies(): Promise<Tallies> {
    return (await this.json<Tallies>(this.meta, 'tallies')) ?? { counts: {}, paid: {} };
  }

  task(id: string): Promise<TaskRecord | null> {
    return this.json<TaskRecord>(this.tasks, id);
  }

  payload(id: string): Promise<Payload | null> {
    return this.json<Payload>(this.payloads, id);
  }

  /** The tasks the market still acts on. */
  async liveTasks(): Promise<TaskRecord[]> {
    const ids: string[] = [];
    for await (const id of this.live.keys()) ids.push(id);
    const raw = ids.length === 0 ? [] : await this.tasks.getMany(ids);
    return raw.flatMap((v) => (v === undefined ? [] : [JSON.parse(v) as TaskRecord]));
  }

  /** Payments into the escrow no task has named yet. */
  async openDeposits(): Promise<DepositRecord[]> {
    const hashes: string[] = [];
    for await (const h of this.open.keys()) hashes.push(h);
    const raw = hashes.length === 0 ? [] : await this.deposits.getMany(hashes);
    return raw.flatMap((v) => (v === undefined ? [] : [JSON.parse(v) as DepositRecord]));
  }

  /** One page of GET /tasks: the summaries from `offset`, at most `limit`, in creation order. */
  async page(f: ListFilter, offset: number, limit: number): Promise<TaskSummary[]> {
    const prefix = listPrefix(f);
    const out: TaskSummary[] = [];
    let skip = offset;
    for await (const v of this.list.values({ gte: prefix, lt: `${prefix}\xff` })) {
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(JSON.parse(v) as TaskSummary);
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * A store written before version 2 has every task in `tasks` and none of the indexes: they
   * are built once, from every task, in one batch. Returns the tallies counted.
   */
  async upgrade(
    paidOf: (tasks: readonly TaskRecord[]) => PaidTotals,
    isLive: (t: TaskRecord) => boolean,
  ): Promise<void> {
    if ((await this.json<number>(this.meta, 'version')) === VERSION) return;
    const tasks: TaskRecord[] = [];
    for await (const v of this.tasks.values()) tasks.push(JSON.parse(v) as TaskRecord);
    const batch = this.db.batch();
    const counts: Record<string, number> = {};
    for (const t of tasks) {
      // Version 1 kept the payload in the task: it moves to its own sublevel.
      const { payload, ...rest } = t as TaskRecord & { payload?: Payload };
      if (payload !== undefined) {
        batch.put(t.task_id, JSON.stringify(payload), { sublevel: this.payloads });
        batch.put(t.task_id, JSON.stringify(rest), { sublevel: this.tasks });
      }
      if (isLive(t)) batch.put(t.task_id, '', { sublevel: this.live });
      const s = summaryOf(t);
      if (s === null) continue;
      for (const p of prefixesOf(s)) {
        batch.put(p + orderKey(s), JSON.stringify(s), { sublevel: this.list });
        counts[p] = (counts[p] ?? 0) + 1;
      }
    }
    for await (const v of this.deposits.values()) {
      const d = JSON.parse(v) as DepositRecord;
      if (d.task_id === null) batch.put(d.tx_hash, '', { sublevel: this.open });
    }
    batch.put('tallies', JSON.stringify({ counts, paid: paidOf(tasks) } satisfies Tallies), {
      sublevel: this.meta,
    });
    batch.put('version', String(VERSION), { sublevel: this.meta });
    await batch.write({ sync: true });
  }

  /** One atomic, synced batch. */
  async write(c: Change): Promise<void> {
    const batch = this.db.batch();
    const retired = new Set(c.retire ?? []);
    for (const t of c.tasks ?? []) {
      batch.put(t.task_id, JSON.stringify(t), { sublevel: this.tasks });
      if (retired.has(t.task_id)) batch.del(t.task_id, { sublevel: this.live });
      else batch.put(t.task_id, '', { sublevel: this.live });
    }
    for (const p of c.payloads ?? [])
      batch.put(p.task_id, JSON.stringify(p.payload), { sublevel: this.payloads });
    for (const id of c.removeTasks ?? []) {
      batch.del(id, { sublevel: this.tasks });
      batch.del(id, { sublevel: this.payloads });
      batch.del(id, { sublevel: this.live });
    }
    for (const { before, after } of c.listed ?? []) {
      if (sameListing(before, after)) continue;
      if (before !== null)
        for (const p of prefixesOf(before)) batch.del(p + orderKey(before), { sublevel: this.list });
      if (after !== null)
        for (const p of prefixesOf(after))
          batch.put(p + orderKey(after), JSON.stringify(after), { sublevel: this.list });
    }
    for (const d of c.deposits ?? []) {
      batch.put(d.tx_hash, JSON.stringify(d), { sublevel: this.deposits });
      if (d.task_id === null) batch.put(d.tx_hash, '', { sublevel: this.open });
      else batch.del(d.tx_hash, { sublevel: this.open });
    }
    if (c.books !== undefined) batch.put('books', JSON.stringify(c.books), { sublevel: this.meta });
    if (c.tallies !== undefined) batch.put('tallies', JSON.stringify(c.tallies), { sublevel: this.meta });
    await batch.write({ sync: true });
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
