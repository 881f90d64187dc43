/**
 * The market's own store (level): tasks, escrow deposits and its books, each change one atomic
 * batch written with `sync` (fsync before it is acknowledged), so that what the market answered
 * survives a crash and a payout plan is on disk before any of its transfers is sent.
 *
 * Sublevels: tasks by task_id, deposits by tx_hash, meta (`books`). Values are JSON.
 */
import type { AbstractSublevel } from 'abstract-level';
import { Level } from 'level';
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

export interface Change {
  readonly tasks?: readonly TaskRecord[];
  readonly removeTasks?: readonly string[];
  readonly deposits?: readonly DepositRecord[];
  readonly books?: Books;
}

export class MarketStore {
  private readonly tasks: Sub;
  private readonly deposits: Sub;
  private readonly meta: Sub;

  private constructor(private readonly db: Level<string, string>) {
    const sub = (name: string) => db.sublevel<string, string>(name, { valueEncoding: 'utf8' });
    this.tasks = sub('tasks');
    this.deposits = sub('deposits');
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

  async books(): Promise<Books | null> {
    const raw = await this.meta.get('books');
    return raw === undefined ? null : (JSON.parse(raw) as Books);
  }

  async allTasks(): Promise<TaskRecord[]> {
    const out: TaskRecord[] = [];
    for await (const v of this.tasks.values()) out.push(JSON.parse(v) as TaskRecord);
    return out;
  }

  async allDeposits(): Promise<DepositRecord[]> {
    const out: DepositRecord[] = [];
    for await (const v of this.deposits.values()) out.push(JSON.parse(v) as DepositRecord);
    return out;
  }

  /** One atomic, synced batch. */
  async write(c: Change): Promise<void> {
    const batch = this.db.batch();
    for (const t of c.tasks ?? []) batch.put(t.task_id, JSON.stringify(t), { sublevel: this.tasks });
    for (const id of c.removeTasks ?? []) batch.del(id, { sublevel: this.tasks });
    for (const d of c.deposits ?? []) batch.put(d.tx_hash, JSON.stringify(d), { sublevel: this.deposits });
    if (c.books !== undefined) batch.put('books', JSON.stringify(c.books), { sublevel: this.meta });
    await batch.write({ sync: true });
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
