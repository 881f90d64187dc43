/**
 * Persistence in level. Everything one block changes is written in ONE batch: the block, its
 * commit, its receipts, the state entries that changed and the new height. LevelDB applies a
 * batch atomically (write-ahead log), so after a kill -9 at any moment the store holds either
 * the whole block or none of it, and the state on disk is always that of the stored height.
 *
 * Sublevels: meta (chain id, genesis hash, height), blocks and commits by height (16 hex
 * digits, so key order is height order), receipts by tx hash, state entries by entry key,
 * snapshot records by height, equivocation evidence by arrival (evidenceStore.ts). Values are JSON, except state entries (their canonical bytes).
 *
 * Every write goes through `apply`: straight to level, or with --fault-injection through the
 * disk fault layer (disk/layer.ts: a full disk, slow writes, writes held until an fsync:
 * heldWrites.ts). A write the disk refuses (the system's ENOSPC or the layer's) is a StoreError
 * STORE_WRITE_FAILED and changes nothing: a batch is written whole or not at all.
 */

import type { AbstractSublevel } from 'abstract-level';
import { Level } from 'level';
import { MemoryLevel } from 'memory-level';
import {
  type Block,
  type BlockJson,
  blockFromJson,
  blockToJson,
  type ChainState,
  type Commit,
  type SnapshotInfo,
  type StateDiff,
  type StateEntry,
  stateFromEntries,
} from '../chain/index.js';
import { DiskFullError, isWriteFailure } from '../disk/errors.js';
import type { DiskLayer } from '../disk/layer.js';
import { StoreError } from './errors.js';
import { HeldWrites, type StoreOp } from './heldWrites.js';
import type { StoredReceipt } from './receipts.js';

// Both backends are abstract-level 3 databases with one interface; level's type names it.
type Db = Level<string, Uint8Array>;
const ENCODINGS = { keyEncoding: 'utf8', valueEncoding: 'view' } as const;

/**
 * A store's data in memory (memory-level), for the simulation: no I/O, so a run is the same every
 * time. It outlives the ChainStore opened on it, as a disk outlives a process: a node of the
 * simulation crashed and started again opens the same one.
 */
export interface MemoryDb {
  readonly level: Db;
}

export function memoryDb(): MemoryDb {
  return { level: new MemoryLevel<string, Uint8Array>(ENCODINGS) as unknown as Db };
}

/** Where the store keeps its data: level on disk (a node), or a MemoryDb. */
export type StoreBackend = 'disk' | MemoryDb;
export type Sub = AbstractSublevel<Db, string | Uint8Array, string, Uint8Array>;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

const heightKey = (h: number) => h.toString(16).padStart(16, '0');
const toJsonBytes = (v: unknown) => utf8.encode(JSON.stringify(v));
const fromJsonBytes = <T>(b: Uint8Array): T => JSON.parse(fromUtf8.decode(b)) as T;
type Op = StoreOp<Sub>;
const put = (sublevel: Sub, key: string, value: Uint8Array): Op => ({ type: 'put', sublevel, key, value });
const del = (sublevel: Sub, key: string): Op => ({ type: 'del', sublevel, key });

export interface ChainIdentity {
  readonly chainId: string;
  readonly genesisHash: string;
}

export interface BlockWrite {
  readonly block: Block;
  readonly commit: Commit;
  readonly receipts: readonly StoredReceipt[];
  readonly diff: StateDiff;
  readonly state: ChainState;
  /** Running count of transactions included per type, kept so metrics survive restarts. */
  readonly txCounts: Readonly<Record<string, number>>;
}

export class ChainStore {
  private readonly db: Db;
  private readonly meta: Sub;
  private readonly blocks: Sub;
  private readonly commits: Sub;
  private readonly receipts: Sub;
  private readonly stateEntries: Sub;
  private readonly snapshots: Sub;
  /** Equivocation evidence (EvidenceStore keeps it). */
  readonly evidence: Sub;
  /** Writes held back by the fault layer's lose_unsynced (empty without it). */
  private readonly held = new HeldWrites<Sub>();
  /** A write failed at the system: level is closed and opened again before the next (reopenDb). */
  private reopen = false;
  /**
   * Closed: it writes nothing more, though its level be opened again under another ChainStore (a
   * simulated node started again on its MemoryDb while the crashed one's work still settles).
   */
  private closed = false;

  private constructor(
    readonly path: string,
    /** TEST ONLY: the disk fault layer (--fault-injection); null: straight to level. */
    private readonly disk: DiskLayer | null,
    backend: StoreBackend,
  ) {
    this.db = backend === 'disk' ? new Level<string, Uint8Array>(path, ENCODINGS) : backend.level;
    const sub = (name: string) => this.db.sublevel<string, Uint8Array>(name, ENCODINGS);
    this.meta = sub('meta');
    this.blocks = sub('blocks');
    this.commits = sub('commits');
    this.receipts = sub('receipts');
    this.stateEntries = sub('state');
    this.snapshots = sub('snapshots');
    this.evidence = sub('evidence');
    // What was held goes to disk once lose_unsynced is off (the page cache written back).
    disk?.onChange((f) => {
      if (!f.loseUnsynced && !this.held.empty) this.apply([]).catch(() => undefined);
    });
  }

  static async open(
    path: string,
    disk: DiskLayer | null = null,
    backend: StoreBackend = 'disk',
  ): Promise<ChainStore> {
    const store = new ChainStore(path, disk, backend);
    try {
      await store.db.open();
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new StoreError('STORE_UNAVAILABLE', `cannot open the data store at ${path}: ${cause}`);
    }
    return store;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.db.close();
  }

  async identity(): Promise<ChainIdentity | null> {
    const raw = await this.read(this.meta, 'identity');
    return raw === undefined ? null : fromJsonBytes<ChainIdentity>(raw);
  }

  async height(): Promise<number | null> {
    const raw = await this.read(this.meta, 'height');
    return raw === undefined ? null : fromJsonBytes<number>(raw);
  }

  /** The first write of a data folder: identity, block 0 and the whole genesis state, in one batch. */
  initialize(
    identity: ChainIdentity,
    genesisBlock: Block,
    state: ChainState,
    diff: StateDiff,
  ): Promise<void> {
    return this.firstWrite(identity, genesisBlock, null, state, diff);
  }

  /**
   * The first write of a data folder joined by state sync: identity, the block at the snapshot's
   * height with its commit, and the whole verified state after it, in one batch (the joiner
   * writes nothing before the state is verified: sync/state/snapshotTrust.ts). No block below it.
   */
  initializeAt(
    identity: ChainIdentity,
    block: Block,
    commit: Commit,
    state: ChainState,
    diff: StateDiff,
  ): Promise<void> {
    return this.firstWrite(identity, block, commit, state, diff);
  }

  /** Identity, the block at the state's height (with its commit, but for genesis) and the whole state. */
  private async firstWrite(
    identity: ChainIdentity,
    block: Block,
    commit: Commit | null,
    state: ChainState,
    diff: StateDiff,
  ): Promise<void> {
    const ops: Op[] = [
      put(this.meta, 'identity', toJsonBytes(identity)),
      put(this.blocks, heightKey(state.height), toJsonBytes(blockToJson(block))),
    ];
    if (commit !== null) {
      ops.push(put(this.commits, heightKey(state.height), toJsonBytes(commit)));
      ops.push(put(this.meta, 'state_synced_from', toJsonBytes(state.height)));
    }
    this.putState(ops, diff, state);
    await this.apply(ops);
  }

  /**
   * Writes `ops` as one batch (`sync`: fsynced), after what the fault layer held: a write the
   * disk refuses is STORE_WRITE_FAILED, and what was held stays held.
   */
  private async apply(ops: Op[], sync = false): Promise<void> {
    if (this.closed) throw new StoreError('STORE_UNAVAILABLE', `the data store at ${this.path} is closed`);
    try {
      if (this.reopen) await this.reopenDb();
      if (this.disk === null) return await this.db.batch(ops, { sync });
      await this.disk.write(sync);
      if (this.disk.holdsUnsynced && !sync) return this.held.hold(ops);
      const before = this.held.take();
      try {
        await this.db.batch([...before, ...ops], { sync });
      } catch (e) {
        this.held.restore(before);
        throw e;
      }
    } catch (e) {
      if (!isWriteFailure(e)) throw e;
      // The system's own failure (not the layer's): level's log is left torn, see reopenDb.
      if (!(e instanceof DiskFullError)) this.reopen = true;
      throw new StoreError('STORE_WRITE_FAILED', (e as Error).message, e);
    }
  }

  /**
   * After level failed a write of its log (a real ENOSPC), it takes writes again once there is
   * space, and reads see them, but the log holds a torn record: at the next open, recovery stops
   * there and every write acknowledged after it is gone (measured: tests/unit/disk/realFullDisk).
   * Closed and opened again before the next write, level recovers the log up to the tear and
   * starts a new one, and what follows is durable. Reads in that moment wait or fail (a retry).
   */
  private async reopenDb(): Promise<void> {
    await this.db.close();
    await this.db.open();
    // A sublevel closed with its database is not opened with it.
    const subs = [this.meta, this.blocks, this.commits, this.receipts, this.stateEntries, this.snapshots];
    for (const sub of [...subs, this.evidence]) await sub.open();
    this.reopen = false;
  }

  /** The value of `key` in `sub`: what the fault layer holds, else level's. */
  private async read(sub: Sub, key: string): Promise<Uint8Array | undefined> {
    const held = this.held.get(sub, key);
    if (held !== undefined) return held ?? undefined;
    return sub.get(key);
  }

  /** Writes `ops` of the evidence sublevel as one batch (EvidenceStore), as every other write. */
  writeEvidence(ops: readonly { type: 'put' | 'del'; key: string; value?: Uint8Array }[]): Promise<void> {
    return this.apply(
      ops.map((o) => (o.type === 'put' ? put(this.evidence, o.key, o.value!) : del(this.evidence, o.key))),
    );
  }

  /** The height a state-synced store started at; null for a store initialized from genesis. */
  async stateSyncedFrom(): Promise<number | null> {
    const raw = await this.read(this.meta, 'state_synced_from');
    return raw === undefined ? null : fromJsonBytes<number>(raw);
  }

  /**
   * Stores a block with its commit, receipts and state changes in one batch. Its one caller,
   * ChainService, has checked the commit (distinct verified validators of the height's active
   * set: docs/PROTOCOL.md), since what is stored here is what GET /block/{h}/commit and block
   * sync serve without another look.
   */
  async writeBlock(w: BlockWrite): Promise<void> {
    const h = w.block.header.height;
    const ops: Op[] = [
      put(this.blocks, heightKey(h), toJsonBytes(blockToJson(w.block))),
      put(this.commits, heightKey(h), toJsonBytes(w.commit)),
    ];
    for (const r of w.receipts) ops.push(put(this.receipts, r.tx_hash, toJsonBytes(r)));
    ops.push(put(this.meta, 'tx_counts', toJsonBytes(w.txCounts)));
    this.putState(ops, w.diff, w.state);
    await this.apply(ops);
  }

  private putState(ops: Op[], diff: StateDiff, state: ChainState): void {
    for (const e of diff.put) ops.push(put(this.stateEntries, e.key, e.value));
    for (const k of diff.del) ops.push(del(this.stateEntries, k));
    ops.push(put(this.meta, 'height', toJsonBytes(state.height)));
    const position = { lastBlockHash: state.lastBlockHash, lastTimestamp: state.lastTimestamp };
    ops.push(put(this.meta, 'position', toJsonBytes(position)));
  }

  async txCounts(): Promise<Record<string, number>> {
    const raw = await this.read(this.meta, 'tx_counts');
    return raw === undefined ? {} : fromJsonBytes<Record<string, number>>(raw);
  }

  /** Receipts written outside a block (expired transactions). */
  async putReceipt(r: StoredReceipt): Promise<void> {
    await this.apply([put(this.receipts, r.tx_hash, toJsonBytes(r))]);
  }

  async loadState(): Promise<ChainState> {
    const height = await this.height();
    const rawPosition = await this.read(this.meta, 'position');
    if (height === null || rawPosition === undefined)
      throw new StoreError('STORE_CORRUPT', 'the store has no state');
    const position = fromJsonBytes<{ lastBlockHash: string; lastTimestamp: number }>(rawPosition);
    const entries: StateEntry[] = [];
    for await (const [key, value] of this.stateEntries.iterator()) entries.push({ key, value });
    try {
      return stateFromEntries(entries, { height, ...position });
    } catch (e) {
      throw new StoreError('STORE_CORRUPT', `stored state is unreadable: ${(e as Error).message}`);
    }
  }

  async block(height: number): Promise<Block | null> {
    const raw = await this.read(this.blocks, heightKey(height));
    if (raw === undefined) return null;
    const parsed = blockFromJson(fromJsonBytes<BlockJson>(raw));
    if (!parsed.ok)
      throw new StoreError('STORE_CORRUPT', `stored block ${height} is unreadable: ${parsed.reason}`);
    return parsed.block;
  }

  /** The stored JSON of a block, served as is by the RPC (no re-encoding). */
  async blockJson(height: number): Promise<BlockJson | null> {
    const raw = await this.read(this.blocks, heightKey(height));
    return raw === undefined ? null : fromJsonBytes<BlockJson>(raw);
  }

  async commit(height: number): Promise<Commit | null> {
    const raw = await this.read(this.commits, heightKey(height));
    return raw === undefined ? null : fromJsonBytes<Commit>(raw);
  }

  async receipt(txHash: string): Promise<StoredReceipt | null> {
    const raw = await this.read(this.receipts, txHash);
    return raw === undefined ? null : fromJsonBytes<StoredReceipt>(raw);
  }

  /**
   * Adds a snapshot's record and drops those of `dropped` heights in one batch, so that a reader
   * of the list never sees the new one beside those it replaces (GET /snapshots listed 11 of a
   * kept 10 between the two writes).
   */
  async replaceSnapshotInfos(
    info: SnapshotInfo & { sizeBytes: number },
    dropped: readonly number[],
  ): Promise<void> {
    const ops: Op[] = [put(this.snapshots, heightKey(info.height), toJsonBytes(info))];
    for (const h of dropped) ops.push(del(this.snapshots, heightKey(h)));
    await this.apply(ops);
  }

  /** Snapshot records, newest first. */
  async snapshotInfos(): Promise<(SnapshotInfo & { sizeBytes: number })[]> {
    const byKey = new Map<string, Uint8Array | null>();
    for await (const [key, value] of this.snapshots.iterator({ reverse: true })) byKey.set(key, value);
    for (const [key, value] of this.held.entries(this.snapshots)) byKey.set(key, value);
    const keys = [...byKey.keys()].sort().reverse();
    return keys.flatMap((k) => {
      const v = byKey.get(k);
      return v === null || v === undefined ? [] : [fromJsonBytes<SnapshotInfo & { sizeBytes: number }>(v)];
    });
  }
}
