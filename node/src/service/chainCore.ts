/**
 * The node's core below its edges: the store in <home>/data (with the equivocation evidence),
 * metrics, the signature cache, the mempool, snapshots in <home>/snapshots, and the chain service
 * over them. Built here once, for
 * the composition root (main/node.ts) and for tests that drive a real core without the network.
 */
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import type { MigrationRegistry } from '../chain/index.js';
import { DiskHealth } from '../disk/health.js';
import type { DiskLayer } from '../disk/layer.js';
import { Mempool, type MempoolOptions } from '../mempool/mempool.js';
import { SignatureCache } from '../mempool/signatureCache.js';
import { createMetrics, type NodeMetrics } from '../metrics/metrics.js';
import { ChainStore, type MemoryDb, memoryDb } from '../store/chainStore.js';
import { EvidenceStore } from '../store/evidenceStore.js';
import { ChainService } from './chainService.js';
import { diskSnapshotFiles, memorySnapshotFiles, type SnapshotFiles } from './snapshotFiles.js';
import { SnapshotManager } from './snapshotManager.js';

export interface ChainCore {
  readonly store: ChainStore;
  /** Whether the disk takes the node's writes (the priv-validator reports to it too). */
  readonly health: DiskHealth;
  /** TEST ONLY: the disk fault layer (--fault-injection); null without. */
  readonly diskLayer: DiskLayer | null;
  readonly metrics: NodeMetrics;
  readonly service: ChainService;
}

/** A node's disk in memory: its store's data and its snapshot files, kept across its restarts. */
export interface MemoryDisk {
  readonly db: MemoryDb;
  readonly snapshots: SnapshotFiles;
}

export function memoryDisk(): MemoryDisk {
  return { db: memoryDb(), snapshots: memorySnapshotFiles() };
}

export async function openChainCore(o: {
  readonly home: string;
  readonly mempool: MempoolOptions;
  readonly logger: Logger;
  readonly now: () => number;
  readonly migrations: MigrationRegistry;
  readonly nodeVersion?: string;
  /** TEST ONLY: the disk fault layer (--fault-injection); absent or null: none in the path. */
  readonly diskLayer?: DiskLayer | null;
  /** Default disk (under `home`); a MemoryDisk for the simulation (node/src/sim/). */
  readonly storage?: 'disk' | MemoryDisk;
}): Promise<ChainCore> {
  const diskLayer = o.diskLayer ?? null;
  const storage = o.storage ?? 'disk';
  const store = await ChainStore.open(
    join(o.home, 'data'),
    diskLayer,
    storage === 'disk' ? 'disk' : storage.db,
  );
  const health = new DiskHealth(o.logger.child({ part: 'disk' }), o.now);
  const metrics = createMetrics();
  const signatures = new SignatureCache(undefined, (n) => metrics.signatureChecks.inc(n));
  const mempool = new Mempool(o.mempool, signatures, o.now);
  const snapshots = new SnapshotManager(
    storage === 'disk' ? diskSnapshotFiles(join(o.home, 'snapshots')) : storage.snapshots,
    store,
    metrics,
    o.logger.child({ part: 'snapshots' }),
  );
  const service = new ChainService({
    store,
    evidence: await EvidenceStore.open(store.evidence, undefined, (ops) => store.writeEvidence(ops)),
    mempool,
    signatures,
    metrics,
    logger: o.logger,
    snapshots,
    migrations: o.migrations,
    ...(o.nodeVersion === undefined ? {} : { nodeVersion: o.nodeVersion }),
    now: o.now,
    health,
    diskLayer,
  });
  return { store, health, diskLayer, metrics, service };
}
