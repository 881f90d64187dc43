/**
 * The node's application core between the chain rules and the edges (RPC, consensus, p2p): one
 * object over its parts, each a job of its own: the committed head (chainHead.ts), opening the
 * chain (openChain.ts), admission (admission.ts), execution (execution.ts), the commit pipeline
 * (commitPipeline.ts), the RPC's and peers' reads (queries.ts), evidence (evidence.ts) and the
 * chain's metrics (chainGauges.ts). Commits are serialized; reads see the last committed state.
 * It implements the RPC's narrow interface (rpc/backend.ts), whose types it shares.
 */
import {
  type Block,
  type BlockResult,
  type ChainState,
  type Commit,
  type Equivocation,
  type Genesis,
  supportedVersions,
  type Tx,
} from '../chain/index.js';
import type { DiskFaults } from '../disk/faults.js';
import { AdmissionQueue } from '../mempool/admissionQueue.js';
import type { DiskAnswer, DiskFaultsAnswer } from '../rpc/answers.js';
import type { NodeVersions, ReceiptView, RpcBackend, SnapshotRecord, SubmitOutcome } from '../rpc/backend.js';
import { NODE_VERSION } from '../util/nodeVersion.js';
import { Admission, DEFAULT_MAX_BATCH, type PeerTxsOutcome, type Waiter } from './admission.js';
import { ChainGauges } from './chainGauges.js';
import { ChainHead } from './chainHead.js';
import { type CommitListener, CommitPipeline } from './commitPipeline.js';
import type { ChainServiceDeps } from './deps.js';
import { recordEquivocation } from './evidence.js';
import { buildProposal, validateBlock } from './execution.js';
import { openChain } from './openChain.js';
import { blocksWithCommits, receipt } from './queries.js';

/** The faults in force in disk_faults.json's names. */
const diskFaultsAnswer = (f: DiskFaults): DiskFaultsAnswer => ({
  full: f.full,
  write_delay_ms: f.writeDelayMs,
  fsync_delay_ms: f.fsyncDelayMs,
  lose_unsynced: f.loseUnsynced,
});

export { NotReadyError } from './chainHead.js';
export type { CommitListener } from './commitPipeline.js';
export type { ChainServiceDeps } from './deps.js';

/**
 * Called with the transactions admitted from the RPC (not from gossip) in one admission batch,
 * to gossip them on together.
 */
export type TxListener = (txs: readonly Tx[]) => void;

export class ChainService implements RpcBackend {
  private readonly head = new ChainHead();
  private readonly gauges: ChainGauges;
  private readonly listeners: CommitListener[] = [];
  private readonly txListeners: TxListener[] = [];
  private readonly admission: Admission;
  private readonly pipeline: CommitPipeline;

  constructor(private readonly deps: ChainServiceDeps) {
    this.gauges = new ChainGauges(deps.metrics, deps.mempool);
    this.admission = new Admission({
      queue: new AdmissionQueue<Waiter>(deps.mempool, deps.signatures),
      mempool: deps.mempool,
      metrics: deps.metrics,
      state: () => this.state,
      onAdmittedFromRpc: (txs) => {
        for (const listener of this.txListeners) listener(txs);
      },
      maxBatch: deps.maxAdmissionBatch ?? DEFAULT_MAX_BATCH,
    });
    this.pipeline = new CommitPipeline(
      deps,
      this.head,
      this.gauges,
      (block) => this.validateBlock(block),
      this.listeners,
    );
  }

  get ready(): boolean {
    return this.head.ready;
  }

  get state(): ChainState {
    return this.head.state;
  }

  /** This binary: its build version and the protocol versions its migration registry runs. */
  get versions(): NodeVersions {
    return {
      node: this.deps.nodeVersion ?? NODE_VERSION,
      supported: supportedVersions(this.deps.migrations),
    };
  }

  get mempoolSize(): number {
    return this.deps.mempool.size;
  }

  get disk(): DiskAnswer {
    const f = this.deps.diskLayer?.current;
    return {
      ...this.deps.health.state,
      faults: f === undefined ? null : diskFaultsAnswer(f),
    };
  }

  blockJson(height: number) {
    return this.deps.store.blockJson(height);
  }

  commit(height: number) {
    return this.deps.store.commit(height);
  }

  snapshots(): Promise<SnapshotRecord[]> {
    return this.deps.snapshots.list();
  }

  async snapshot(height: number): Promise<SnapshotRecord | null> {
    const verified = await this.deps.snapshots.readVerified(height);
    return verified?.record ?? null;
  }

  /** A snapshot's gzip file as stored, for peers that state-sync; null if unknown. */
  snapshotFile(height: number): Promise<{ record: SnapshotRecord; file: Uint8Array } | null> {
    return this.deps.snapshots.readFile(height);
  }

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  /**
   * Opens the chain: a new data folder is initialized from the genesis; an existing one must
   * belong to the same chain and genesis, and its state is loaded as of its last block.
   */
  open(genesis: Genesis): Promise<void> {
    return openChain(this.deps, this.head, this.gauges, genesis);
  }

  /**
   * Keeps an equivocation consensus found (each pair once, the newest MAX_EVIDENCE) and counts it
   * in chain_equivocations_total. False when that pair was already kept.
   */
  recordEquivocation(e: Equivocation): Promise<boolean> {
    return recordEquivocation(this.deps, e);
  }

  /** The kept equivocation evidence, newest first. */
  evidence(): Equivocation[] {
    return this.deps.evidence.list();
  }

  onTxsAdmitted(listener: TxListener): void {
    this.txListeners.push(listener);
  }

  /**
   * A transaction from the RPC: settles once it is admitted (then gossiped to peers by the
   * listeners, with the others of its batch) or refused.
   */
  submit(input: unknown, size: number): Promise<SubmitOutcome> {
    return this.admission.submit(input, size, true);
  }

  /**
   * A batch of transactions from the RPC (POST /tx/send_batch): each as one sent alone, the
   * batch malformed as a whole when any of them is.
   */
  submitBatch(inputs: readonly unknown[], size: number): Promise<PeerTxsOutcome> {
    return this.admission.submitAll(inputs, size, true);
  }

  /**
   * The transactions of one gossip message (`size`: its bytes): admitted, not re-gossiped
   * (gossipsub forwards the message itself). Malformed as a whole when any of them is.
   */
  submitFromPeer(inputs: readonly unknown[], size: number): Promise<PeerTxsOutcome> {
    return this.admission.submitAll(inputs, size);
  }

  receipt(hash: string): Promise<ReceiptView | null> {
    return receipt(this.deps, this.head, hash);
  }

  /**
   * Checks `block` on top of the last committed state; throws BlockError when invalid. The
   * signatures of its transactions this node has not verified yet (not received by gossip) are
   * verified first, in one batch.
   */
  validateBlock(block: Block): BlockResult {
    return validateBlock(this.deps, this.head, block);
  }

  /**
   * A new block for (next height, round) from the mempool, built and signed by `privateKey`, with
   * the clock's time (or `timestamp`: a Byzantine test validator's second block).
   */
  buildProposal(
    privateKey: Uint8Array,
    round: number,
    timestamp = Math.floor(this.deps.now() / 1000),
  ): { block: Block; result: BlockResult } {
    return buildProposal(this.deps, this.head, privateKey, round, timestamp);
  }

  /**
   * Commits a block this node's consensus decided. Its commit was assembled from precommits the
   * driver authenticated one by one as they arrived, so their signatures are not verified again
   * here, but its shape is (distinct validators of the active set, a quorum): nothing else is ever
   * stored. `known` is the execution result already computed when the block was validated or
   * built. Returns false when the block is not the next one (already committed, e.g. by sync).
   */
  commitDecided(block: Block, commit: Commit, known?: BlockResult): Promise<boolean> {
    return this.pipeline.commitNext(block, commit, false, known);
  }

  /**
   * Commits a block fetched from a peer: its commit must hold only valid precommits of distinct
   * validators of the active set of its height, more than 2/3 of it (commitProblem); a commit with
   * any other entry is refused (BlockError BAD_COMMIT), never cleaned.
   */
  commitSynced(block: Block, commit: Commit): Promise<boolean> {
    return this.pipeline.commitNext(block, commit, true);
  }

  /** Blocks with their commits from `from` to `to` (inclusive), for peers that sync. */
  blocksWithCommits(from: number, to: number): Promise<{ block: Block; commit: Commit }[]> {
    return blocksWithCommits(this.deps, this.head, from, to);
  }

  /**
   * Removes expired transactions; their receipts read failed / expired. Serialized with commits:
   * a transaction whose block is being written must not be marked expired over its confirmation.
   */
  expire(): Promise<number> {
    return this.pipeline.expire();
  }
}
