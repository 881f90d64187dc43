/**
 * Writes a snapshot after every block at a snapshot height (every `snapshot_interval` blocks
 * and every epoch boundary) as a gzip file (in <home>/snapshots, or in memory: snapshotFiles.ts),
 * records it in the store, and keeps the newest `snapshots_kept`. A file is written whole or not
 * at all. Reading one verifies its SHA-256.
 */
import type { Logger } from '@chain-devnet/kit/log';
import { type ChainState, decodeSnapshot, encodeSnapshot, isSnapshotHeight } from '../chain/index.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { SnapshotRecord } from '../rpc/backend.js';
import type { ChainStore } from '../store/chainStore.js';
import type { SnapshotFiles } from './snapshotFiles.js';

export class SnapshotManager {
  constructor(
    private readonly files: SnapshotFiles,
    private readonly store: ChainStore,
    private readonly metrics: NodeMetrics,
    private readonly logger: Logger,
  ) {}

  private nameOf(height: number): string {
    return `${height}.snapshot.gz`;
  }

  /**
   * At start: a crash between a block's write and its snapshot leaves that snapshot untaken, and
   * one between a file's rename and its record leaves an orphan file. Both are repaired here.
   */
  async repair(state: ChainState): Promise<void> {
    const records = await this.store.snapshotInfos();
    if (isSnapshotHeight(state.height, state.params) && !records.some((r) => r.height === state.height)) {
      await this.maybeTake(state);
    }
    const known = new Set((await this.store.snapshotInfos()).map((r) => this.nameOf(r.height)));
    for (const f of await this.files.list()) if (!known.has(f)) await this.files.remove(f);
  }

  async maybeTake(state: ChainState): Promise<SnapshotRecord | null> {
    if (!isSnapshotHeight(state.height, state.params)) return null;
    const { info, file } = encodeSnapshot(state);
    await this.files.write(this.nameOf(state.height), file);
    const record: SnapshotRecord = { ...info, sizeBytes: file.length };
    // The oldest beyond the kept number go in the same write as the new record; their files after.
    const older = (await this.store.snapshotInfos()).filter((r) => r.height !== state.height);
    const dropped = older.slice(Math.max(0, state.params.snapshotsKept - 1)).map((r) => r.height);
    await this.store.replaceSnapshotInfos(record, dropped);
    this.metrics.snapshots.inc();
    this.metrics.lastSnapshotHeight.set(state.height);
    this.logger.info('snapshot written', { height: state.height, hash: info.hash, bytes: file.length });
    for (const h of dropped) await this.files.remove(this.nameOf(h));
    return record;
  }

  list(): Promise<SnapshotRecord[]> {
    return this.store.snapshotInfos();
  }

  /** One snapshot's record and its gzip file as stored (served in chunks for state sync); null if unknown. */
  async readFile(height: number): Promise<{ record: SnapshotRecord; file: Uint8Array } | null> {
    const record = (await this.store.snapshotInfos()).find((s) => s.height === height);
    if (record === undefined) return null;
    const file = await this.files.read(this.nameOf(height));
    return file === null ? null : { record, file };
  }

  /** The record of one snapshot after reading its file and verifying its hash; null if unknown. */
  async readVerified(height: number): Promise<{ record: SnapshotRecord; state: ChainState } | null> {
    const record = (await this.store.snapshotInfos()).find((s) => s.height === height);
    if (record === undefined) return null;
    const file = await this.files.read(this.nameOf(height));
    if (file === null) throw new Error(`snapshot file ${this.nameOf(height)} is missing`);
    const { state } = decodeSnapshot(file, record.hash);
    return { record, state };
  }
}
