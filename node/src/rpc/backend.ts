/**
 * What the RPC needs from the node: a narrow interface, so the app is testable with a real service
 * and no port. It holds the types the RPC and the chain service share (the service implements this
 * interface and imports them from here; the RPC never imports the service).
 */
import type { BlockJson, ChainState, Commit, Equivocation, SnapshotInfo } from '../chain/index.js';
import type { DiskAnswer, ReceiptAnswer } from './answers.js';

/** The outcome of one submitted transaction (the RPC's, or one of a gossip message's). */
export type SubmitOutcome =
  | { kind: 'malformed'; reason: string }
  | { kind: 'received'; hash: string }
  | { kind: 'rejected'; hash: string; code: string; message: string };

/**
 * The outcome of a batch of transactions: malformed as a whole when any of them is (none is
 * admitted then), else each one's outcome, in the batch's order.
 */
export type BatchOutcome =
  | { kind: 'malformed'; reason: string }
  | { kind: 'checked'; outcomes: SubmitOutcome[] };

/** A receipt as GET /tx/{hash}/receipt answers it. */
export type ReceiptView = ReceiptAnswer;

/** A snapshot the node keeps: its info and the size of its gzip file. */
export type SnapshotRecord = SnapshotInfo & { readonly sizeBytes: number };

/** What the node's binary is: its build version and the protocol versions it runs. */
export interface NodeVersions {
  readonly node: string;
  readonly supported: readonly string[];
}

export interface RpcBackend {
  readonly versions: NodeVersions;
  readonly ready: boolean;
  /** The last committed state; only read after `ready`. */
  readonly state: ChainState;
  readonly mempoolSize: number;
  /** Whether the disk takes the node's writes, and the test-only disk faults in force. */
  readonly disk: DiskAnswer;
  /** Settles when the transaction is admitted or refused. */
  submit(input: unknown, size: number): Promise<SubmitOutcome>;
  /** Settles when every transaction of the batch (`size`: its bytes) is admitted or refused. */
  submitBatch(inputs: readonly unknown[], size: number): Promise<BatchOutcome>;
  receipt(hash: string): Promise<ReceiptView | null>;
  blockJson(height: number): Promise<BlockJson | null>;
  /** The commit this node keeps for the block at `height` (none for genesis). */
  commit(height: number): Promise<Commit | null>;
  snapshots(): Promise<SnapshotRecord[]>;
  /** The record of one snapshot after verifying its file's hash; null when unknown. */
  snapshot(height: number): Promise<SnapshotRecord | null>;
  /** One snapshot's gzip file as stored (GET /snapshots/{height}/content); null when unknown. */
  snapshotFile(height: number): Promise<{ record: SnapshotRecord; file: Uint8Array } | null>;
  /** Equivocation evidence this node kept, newest first. */
  evidence(): Equivocation[];
}
