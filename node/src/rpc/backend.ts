/** What the RPC needs from the node: a narrow interface, so the app is testable with a real service and no port. */
import type { BlockJson, ChainState, Commit, Equivocation } from '../chain/index.js';
import type { ReceiptView, SubmitOutcome } from '../node/chainService.js';
import type { SnapshotRecord } from '../node/snapshotManager.js';

export interface RpcBackend {
  readonly ready: boolean;
  /** The last committed state; only read after `ready`. */
  readonly state: ChainState;
  readonly mempoolSize: number;
  /** Settles when the transaction is admitted or refused. */
  submit(input: unknown, size: number): Promise<SubmitOutcome>;
  receipt(hash: string): Promise<ReceiptView | null>;
  blockJson(height: number): Promise<BlockJson | null>;
  /** The commit this node keeps for the block at `height` (none for genesis). */
  commit(height: number): Promise<Commit | null>;
  snapshots(): Promise<SnapshotRecord[]>;
  /** The record of one snapshot after verifying its file's hash; null when unknown. */
  snapshot(height: number): Promise<SnapshotRecord | null>;
  /** Equivocation evidence this node kept, newest first. */
  evidence(): Equivocation[];
}
