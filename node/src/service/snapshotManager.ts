/**
 * Writes a snapshot after every block at a snapshot height (every `snapshot_interval` blocks
 * and every epoch boundary) as a gzip file in <home>/snapshots, records it in the store, and
 * keeps the newest `snapshots_kept`. Files are written to a temporary name and renamed, so a
 * crash never leaves half a snapshot under its real name. Reading one verifies its SHA-256.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import { type ChainState, decodeSnapshot, encodeSnapshot, isSnapshotHeight } from '../chain/index.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { SnapshotRecord } from '../rpc/backend.js';
import type { ChainStore } from '../store/chainStore.js';

export class SnapshotManager {
  constructor(
    private readonly dir: string,
    private readonly store: ChainStore,
    private readonly metrics: NodeMetrics,
    private readonly logger: Logger,
  ) {}

  fileOf(height: number): string {
    return join(this.dir, `${height}.snapshot.gz`);
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
    const known = new Set((await this.store.snapshotInfos()).map((r) => `${r.height}.snapshot.gz`));
    const files = await readdir(this.dir).catch(() => [] as string[]);
    for (const f of files) if (!known.has(f)) await rm(join(this.dir, f), { force: true });
  }

  async maybeTake(state: ChainState): Promise<SnapshotRecord | null> {
    if (!isSnapshotHeight(state.height, state.params)) return null;
    const { info, file } = encodeSnapshot(state);
    await mkdir(this.dir, { recursive: true });
    const target = this.fileOf(state.height);
    await writeFile(`${target}.tmp`, file);
    await rename(`${target}.tmp`, target);
    const record: SnapshotRecord = { ...info, sizeBytes: file.length };
    // The oldest beyond the kept number go in the same write as the new record; their files after.
    const older = (await this.store.snapshotInfos()).filter((r) => r.height !== state.height);
    const dropped = older.slice(Math.max(0, state.params.snapshotsKept - 1)).map((r) => r.height);
    await this.store.replaceSnapshotInfos(record, dropped);
    this.metrics.snapshots.inc();
    this.metrics.lastSnapshotHeight.set(state.height);
    this.logger.info('snapshot written', { height: state.height, hash: info.hash, bytes: file.length });
    for (const h of dropped) await rm(this.fileOf(h), { force: true });
    return record;
  }

  list(): Promise<SnapshotRecord[]> {
    return this.store.snapshotInfos();
  }

  /** One snapshot's record and its gzip file as stored (served in chunks for state sync); null if unknown. */
  async readFile(height: number): Promise<{ record: SnapshotRecord; file: Uint8Array } | null> {
    const record = (await this.store.snapshotInfos()).find((s) => s.height === height);
    if (record === undefined) return null;
    const file = await readFile(this.fileOf(height)).catch(() => null);
    return file === null ? null : { record, file: new Uint8Array(file) };
  }

  /** The record of one snapshot after reading its file and verifying its hash; null if unknown. */
  async readVerified(height: number): Promise<{ record: SnapshotRecord; state: ChainState } | null> {
    const record = (await this.store.snapshotInfos()).find((s) => s.height === height);
    if (record === undefined) return null;
    const file = await readFile(this.fileOf(height));
    const { state } = decodeSnapshot(file, record.hash);
    return { record, state };
  }
}
