/**
 * Persistence in level. Everything one block changes is written in ONE batch: the block, its
 * commit, its receipts, the state entries that changed and the new height. LevelDB applies a
 * batch atomically (write-ahead log), so after a kill -9 at any moment the store holds either
 * the whole block or none of it, and the state on disk is always that of the stored height.
 *
 * Sublevels: meta (chain id, genesis hash, height), blocks and commits by height (16 hex
 * digits, so key order is height order), receipts by tx hash, state entries by entry key,
 * snapshot records by height, equivocation evidence by arrival (evidenceStore.ts). Values are JSON, except state entries (their canonical bytes).
 */

import type { AbstractSublevel } from 'abstract-level';
import { Level } from 'level';
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
import { StoreError } from './errors.js';
import type { StoredReceipt } from './receipts.js';

export type Sub = AbstractSublevel<Level<string, Uint8Array>, string | Uint8Array, string, Uint8Array>;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

const heightKey = (h: number) => h.toString(16).padStart(16, '0');
const toJsonBytes = (v: unknown) => utf8.encode(JSON.stringify(v));
const fromJsonBytes = <T>(b: Uint8Array): T => JSON.parse(fromUtf8.decode(b)) as T;

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
  private readonly db: Level<string, Uint8Array>;
  private readonly meta: Sub;
  private readonly blocks: Sub;
  private readonly commits: Sub;
  private readonly receipts: Sub;
  private readonly stateEntries: Sub;
  private readonly snapshots: Sub;
  /** Equivocation evidence (EvidenceStore keeps it). */
  readonly evidence: Sub;

  private constructor(readonly path: string) {
    this.db = new Level<string, Uint8Array>(path, { keyEncoding: 'utf8', valueEncoding: 'view' });
    const sub = (name: string) =>
      this.db.sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' });
    this.meta = sub('meta');
    this.blocks = sub('blocks');
    this.commits = sub('commits');
    this.receipts = sub('receipts');
    this.stateEntries = sub('state');
    this.snapshots = sub('snapshots');
    this.evidence = sub('evidence');
  }

  static async open(path: string): Promise<ChainStore> {
    const store = new ChainStore(path);
    try {
      await store.db.open();
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new StoreError('STORE_UNAVAILABLE', `cannot open the data store at ${path}: ${cause}`);
    }
    return store;
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  async identity(): Promise<ChainIdentity | null> {
    const raw = await this.meta.get('identity');
    return raw === undefined ? null : fromJsonBytes<ChainIdentity>(raw);
  }

  async height(): Promise<number | null> {
    const raw = await this.meta.get('height');
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
    const batch = this.db.batch();
    batch.put('identity', toJsonBytes(identity), { sublevel: this.meta });
    batch.put(heightKey(state.height), toJsonBytes(blockToJson(block)), { sublevel: this.blocks });
    if (commit !== null) {
      batch.put(heightKey(state.height), toJsonBytes(commit), { sublevel: this.commits });
      batch.put('state_synced_from', toJsonBytes(state.height), { sublevel: this.meta });
    }
    this.putState(batch, diff, state);
    await batch.write();
  }

  /** The height a state-synced store started at; null for a store initialized from genesis. */
  async stateSyncedFrom(): Promise<number | null> {
    const raw = await this.meta.get('state_synced_from');
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
    const batch = this.db.batch();
    batch.put(heightKey(h), toJsonBytes(blockToJson(w.block)), { sublevel: this.blocks });
    batch.put(heightKey(h), toJsonBytes(w.commit), { sublevel: this.commits });
    for (const r of w.receipts) batch.put(r.tx_hash, toJsonBytes(r), { sublevel: this.receipts });
    batch.put('tx_counts', toJsonBytes(w.txCounts), { sublevel: this.meta });
    this.putState(batch, w.diff, w.state);
    await batch.write();
  }

  private putState(
    batch: ReturnType<Level<string, Uint8Array>['batch']>,
    diff: StateDiff,
    state: ChainState,
  ): void {
    for (const e of diff.put) batch.put(e.key, e.value, { sublevel: this.stateEntries });
    for (const k of diff.del) batch.del(k, { sublevel: this.stateEntries });
    batch.put('height', toJsonBytes(state.height), { sublevel: this.meta });
    batch.put(
      'position',
      toJsonBytes({ lastBlockHash: state.lastBlockHash, lastTimestamp: state.lastTimestamp }),
      {
        sublevel: this.meta,
      },
    );
  }

  async txCounts(): Promise<Record<string, number>> {
    const raw = await this.meta.get('tx_counts');
    return raw === undefined ? {} : fromJsonBytes<Record<string, number>>(raw);
  }

  /** Receipts written outside a block (expired transactions). */
  async putReceipt(r: StoredReceipt): Promise<void> {
    await this.receipts.put(r.tx_hash, toJsonBytes(r));
  }

  async loadState(): Promise<ChainState> {
    const height = await this.height();
    const rawPosition = await this.meta.get('position');
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
    const raw = await this.blocks.get(heightKey(height));
    if (raw === undefined) return null;
    const parsed = blockFromJson(fromJsonBytes<BlockJson>(raw));
    if (!parsed.ok)
      throw new StoreError('STORE_CORRUPT', `stored block ${height} is unreadable: ${parsed.reason}`);
    return parsed.block;
  }

  /** The stored JSON of a block, served as is by the RPC (no re-encoding). */
  async blockJson(height: number): Promise<BlockJson | null> {
    const raw = await this.blocks.get(heightKey(height));
    return raw === undefined ? null : fromJsonBytes<BlockJson>(raw);
  }

  async commit(height: number): Promise<Commit | null> {
    const raw = await this.commits.get(heightKey(height));
    return raw === undefined ? null : fromJsonBytes<Commit>(raw);
  }

  async receipt(txHash: string): Promise<StoredReceipt | null> {
    const raw = await this.receipts.get(txHash);
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
    const batch = this.db.batch();
    batch.put(heightKey(info.height), toJsonBytes(info), { sublevel: this.snapshots });
    for (const h of dropped) batch.del(heightKey(h), { sublevel: this.snapshots });
    await batch.write();
  }

  /** Snapshot records, newest first. */
  async snapshotInfos(): Promise<(SnapshotInfo & { sizeBytes: number })[]> {
    const out: (SnapshotInfo & { sizeBytes: number })[] = [];
    for await (const value of this.snapshots.values({ reverse: true })) out.push(fromJsonBytes(value));
    return out;
  }
}
