/** What the chain service is built from (chainCore.ts builds them once); each part takes what it uses. */

import type { Logger } from '@chain-devnet/kit/log';
import type { MigrationRegistry } from '../chain/index.js';
import type { DiskHealth } from '../disk/health.js';
import type { DiskLayer } from '../disk/layer.js';
import type { Mempool } from '../mempool/mempool.js';
import type { SignatureCache } from '../mempool/signatureCache.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { ChainStore } from '../store/chainStore.js';
import type { EvidenceStore } from '../store/evidenceStore.js';
import type { SnapshotManager } from './snapshotManager.js';

export interface ChainServiceDeps {
  readonly store: ChainStore;
  readonly evidence: EvidenceStore;
  readonly mempool: Mempool;
  readonly signatures: SignatureCache;
  readonly metrics: NodeMetrics;
  readonly logger: Logger;
  readonly snapshots: SnapshotManager;
  readonly migrations: MigrationRegistry;
  /** The build's version (default NODE_VERSION): tests run an "older" or "newer" node with another. */
  readonly nodeVersion?: string;
  /** Milliseconds since the epoch: the node's only clock. */
  readonly now: () => number;
  /** Most signatures verified in one admission batch (default DEFAULT_MAX_BATCH). */
  readonly maxAdmissionBatch?: number;
  /** Whether the disk takes the node's writes: the commits report to it. */
  readonly health: DiskHealth;
  /** TEST ONLY: the disk fault layer (--fault-injection), shown in GET /status; null without. */
  readonly diskLayer: DiskLayer | null;
}
