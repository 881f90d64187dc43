/**
 * The node's core below its edges: the store in <home>/data (with the equivocation evidence),
 * metrics, the signature cache, the mempool, snapshots in <home>/snapshots, and the chain service
 * over them. Built here once, for
 * the composition root (main/node.ts) and for tests that drive a real core without the network.
 */
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import type { MigrationRegistry } from '../chain/index.js';
import { Mempool, type MempoolOptions } from '../mempool/mempool.js';
import { SignatureCache } from '../mempool/signatureCache.js';
import { createMetrics, type NodeMetrics } from '../metrics/metrics.js';
import { ChainStore } from '../store/chainStore.js';
import { EvidenceStore } from '../store/evidenceStore.js';
import { ChainService } from './chainService.js';
import { SnapshotManager } from './snapshotManager.js';

export interface ChainCore {
  readonly store: ChainStore;
  readonly metrics: NodeMetrics;
  readonly service: ChainService;
}

export async function openChainCore(o: {
  readonly home: string;
  readonly mempool: MempoolOptions;
  readonly logger: Logger;
  readonly now: () => number;
  readonly migrations: MigrationRegistry;
  readonly nodeVersion?: string;
}): Promise<ChainCore> {
  const store = await ChainStore.open(join(o.home, 'data'));
  const metrics = createMetrics();
  const signatures = new SignatureCache(undefined, (n) => metrics.signatureChecks.inc(n));
  const mempool = new Mempool(o.mempool, signatures, o.now);
  const snapshots = new SnapshotManager(
    join(o.home, 'snapshots'),
    store,
    metrics,
    o.logger.child({ part: 'snapshots' }),
  );
  const service = new ChainService({
    store,
    evidence: await EvidenceStore.open(store.evidence),
    mempool,
    signatures,
    metrics,
    logger: o.logger,
    snapshots,
    migrations: o.migrations,
    ...(o.nodeVersion === undefined ? {} : { nodeVersion: o.nodeVersion }),
    now: o.now,
  });
  return { store, metrics, service };
}
