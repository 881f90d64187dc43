/**
 * The node's application core between the chain rules and the edges (RPC, producer, later
 * p2p and consensus): it holds the current state, admits transactions, commits blocks
 * (store, mempool, metrics, snapshots, in that order), and answers receipts. Commits are
 * serialized; reads see the last committed state.
 */

import { blockHash } from '../chain/block/header.js';
import {
  activeValidators,
  applyBlock,
  type Block,
  BlockError,
  type BlockResult,
  buildBlock,
  type ChainState,
  type Commit,
  commitProblem,
  commitShapeProblem,
  type Equivocation,
  epochAt,
  fullStateDiff,
  type Genesis,
  type MigrationRegistry,
  stateDiff,
  stateRoot,
  TX_TYPES,
  type Tx,
  txHash,
} from '../chain/index.js';
import { AdmissionQueue } from '../mempool/admissionQueue.js';
import type { Mempool } from '../mempool/mempool.js';
import type { SignatureCache } from '../mempool/signatureCache.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { ReceiptAnswer } from '../rpc/answers.js';
import type { RpcBackend } from '../rpc/backend.js';
import type { ChainStore } from '../store/chainStore.js';
import { StoreError } from '../store/errors.js';
import type { EvidenceStore } from '../store/evidenceStore.js';
import type { StoredReceipt } from '../store/receipts.js';
import type { Logger } from '../util/logger.js';
import {
  Admission,
  DEFAULT_MAX_BATCH,
  type PeerTxsOutcome,
  type SubmitOutcome,
  type Waiter,
} from './admission.js';
import type { SnapshotManager, SnapshotRecord } from './snapshotManager.js';

export type { PeerTxsOutcome, SubmitOutcome } from './admission.js';

/** A receipt as GET /tx/{hash}/receipt answers it. */
export type ReceiptView = ReceiptAnswer;

export interface ChainServiceDeps {
  readonly store: ChainStore;
  readonly evidence: EvidenceStore;
  readonly mempool: Mempool;
  readonly signatures: SignatureCache;
  readonly metrics: NodeMetrics;
  readonly logger: Logger;
  readonly snapshots: SnapshotManager;
  readonly migrations: MigrationRegistry;
  /** Milliseconds since the epoch: the node's only clock. */
  readonly now: () => number;
  /** Most signatures verified in one admission batch (default DEFAULT_MAX_BATCH). */
  readonly maxAdmissionBatch?: number;
}

export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

export type CommitListener = (block: Block, result: BlockResult) => void;
/**
 * Called with the transactions admitted from the RPC (not from gossip) in one admission batch,
 * to gossip them on together.
 */
export type TxListener = (txs: readonly Tx[]) => void;

export class ChainService implements RpcBackend {
  private current: ChainState | null = null;
  private lastCommitAt: number | null = null;
  private txCounts: Record<string, number> = {};
  /** What chain_transactions_total has been told so far, per type. */
  private readonly reported: Record<string, number> = {};
  private committing: Promise<unknown> = Promise.resolve();
  private readonly listeners: CommitListener[] = [];
  private readonly txListeners: TxListener[] = [];
  private readonly admission: Admission;

  constructor(private readonly deps: ChainServiceDeps) {
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
  }

  get ready(): boolean {
    return this.current !== null;
  }

  get state(): ChainState {
    if (this.current === null) throw new NotReadyError('Node not initialized');
    return this.current;
  }

  get mempoolSize(): number {
    return this.deps.mempool.size;
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

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  /**
   * Opens the chain: a new data folder is initialized from the genesis; an existing one must
   * belong to the same chain and genesis, and its state is loaded as of its last block.
   */
  async open(genesis: Genesis): Promise<void> {
    const { store, logger } = this.deps;
    const identity = await store.identity();
    const chainId = genesis.state.params.chainId;
    if (identity === null) {
      await store.initialize(
        { chainId, genesisHash: genesis.hash },
        genesis.block,
        genesis.state,
        fullStateDiff(genesis.state),
      );
      logger.info('data folder initialized from genesis', { chain_id: chainId, genesis_hash: genesis.hash });
    } else if (identity.chainId !== chainId) {
      throw new StoreError(
        'WRONG_CHAIN',
        `the data folder belongs to chain ${identity.chainId}, but the genesis is for ${chainId}: use another --home`,
      );
    } else if (identity.genesisHash !== genesis.hash) {
      throw new StoreError(
        'GENESIS_MISMATCH',
        `the data folder was created from genesis ${identity.genesisHash}, not ${genesis.hash}: use the original genesis file or another --home`,
      );
    }
    const state = await store.loadState();
    const head = await store.block(state.height);
    const root = stateRoot(state);
    if (head === null || head.header.stateRoot !== root) {
      throw new StoreError(
        'STORE_CORRUPT',
        `stored state at height ${state.height} has root ${root}, but block ${state.height} says ${head?.header.stateRoot ?? '(missing)'}`,
      );
    }
    this.txCounts = await store.txCounts();
    // The kept evidence counts in chain_equivocations_total, as after the restart it was seen in.
    for (const e of this.deps.evidence.list())
      this.deps.metrics.equivocations.inc({ validator: e.validator });
    await this.deps.snapshots.repair(state);
    this.current = state;
    this.refreshMetrics(state);
    logger.info('chain state loaded', { height: state.height, last_hash: state.lastBlockHash });
  }

  /**
   * Keeps an equivocation consensus found (each pair once, the newest MAX_EVIDENCE) and counts it
   * in chain_equivocations_total. False when that pair was already kept.
   */
  async recordEquivocation(e: Equivocation): Promise<boolean> {
    if (!(await this.deps.evidence.add(e))) return false;
    this.deps.metrics.equivocations.inc({ validator: e.validator });
    return true;
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
   * The transactions of one gossip message (`size`: its bytes): admitted, not re-gossiped
   * (gossipsub forwards the message itself). Malformed as a whole when any of them is.
   */
  submitFromPeer(inputs: readonly unknown[], size: number): Promise<PeerTxsOutcome> {
    return this.admission.submitAll(inputs, size);
  }

  async receipt(hash: string): Promise<ReceiptView | null> {
    const state = this.state;
    if (this.deps.mempool.has(hash)) {
      return {
        tx_hash: hash,
        status: 'pending',
        block_height: null,
        timestamp: null,
        confirmations: 0,
        error: null,
      };
    }
    const stored = await this.deps.store.receipt(hash);
    if (stored === null) return null;
    const confirmations = stored.block_height === null ? 0 : state.height - stored.block_height + 1;
    return {
      tx_hash: stored.tx_hash,
      status: stored.status,
      block_height: stored.block_height,
      timestamp: stored.timestamp,
      confirmations,
      error: stored.error,
    };
  }

  /**
   * Checks `block` on top of the last committed state; throws BlockError when invalid. The
   * signatures of its transactions this node has not verified yet (not received by gossip) are
   * verified first, in one batch.
   */
  validateBlock(block: Block): BlockResult {
    const state = this.state;
    const chainId = state.params.chainId;
    return applyBlock(state, block, {
      migrations: this.deps.migrations,
      isSignatureValid: this.deps.signatures.predicateFor(
        block.txs.map((tx) => ({ tx, hash: txHash(tx, chainId) })),
        chainId,
      ),
    });
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
    const state = this.state;
    return buildBlock(
      state,
      this.deps.mempool.select(state, state.params.blockGasLimit),
      { timestamp, round, privateKey },
      { migrations: this.deps.migrations, isSignatureValid: this.deps.signatures.isValid },
    );
  }

  /**
   * Commits a block this node's consensus decided. Its commit was assembled from precommits the
   * driver authenticated one by one as they arrived, so their signatures are not verified again
   * here, but its shape is (distinct validators of the active set, a quorum): nothing else is ever
   * stored. `known` is the execution result already computed when the block was validated or
   * built. Returns false when the block is not the next one (already committed, e.g. by sync).
   */
  commitDecided(block: Block, commit: Commit, known?: BlockResult): Promise<boolean> {
    return this.commitNext(block, commit, false, known);
  }

  /**
   * Commits a block fetched from a peer: its commit must hold only valid precommits of distinct
   * validators of the active set of its height, more than 2/3 of it (commitProblem); a commit with
   * any other entry is refused (BlockError BAD_COMMIT), never cleaned.
   */
  commitSynced(block: Block, commit: Commit): Promise<boolean> {
    return this.commitNext(block, commit, true);
  }

  private commitNext(
    block: Block,
    commit: Commit,
    verifySignatures: boolean,
    known?: BlockResult,
  ): Promise<boolean> {
    return this.serialized(async () => {
      const state = this.state;
      if (block.header.height !== state.height + 1) return false;
      const hash = blockHash(block.header);
      if (commit.blockHash !== hash || commit.height !== block.header.height)
        throw new BlockError(
          'BAD_COMMIT',
          `commit is for ${commit.blockHash} at ${commit.height}, not this block`,
        );
      const active = activeValidators(state);
      const problem = verifySignatures
        ? commitProblem(state.params.chainId, commit, active)
        : commitShapeProblem(commit, active);
      if (problem !== null) throw new BlockError('BAD_COMMIT', `commit refused: ${problem}`);
      await this.commitBlock(block, commit, known ?? this.validateBlock(block));
      return true;
    });
  }

  /** Blocks with their commits from `from` to `to` (inclusive), for peers that sync. */
  async blocksWithCommits(from: number, to: number): Promise<{ block: Block; commit: Commit }[]> {
    const out: { block: Block; commit: Commit }[] = [];
    for (let h = from; h <= Math.min(to, this.state.height); h++) {
      const block = await this.deps.store.block(h);
      const commit = await this.deps.store.commit(h);
      if (block === null || commit === null) break;
      out.push({ block, commit });
    }
    return out;
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.committing.then(work, work);
    this.committing = next.catch(() => undefined);
    return next;
  }

  private async commitBlock(block: Block, commit: Commit, result: BlockResult): Promise<void> {
    const { store, mempool, metrics, logger, snapshots, now } = this.deps;
    const prev = this.state;
    const h = block.header;
    const receipts: StoredReceipt[] = result.outcomes.map((o) => ({
      tx_hash: o.txHash,
      status: o.error ? 'failed' : 'confirmed',
      block_height: h.height,
      timestamp: h.timestamp,
      error: o.error?.message ?? null,
      error_code: o.error?.code ?? null,
    }));
    const counts = { ...this.txCounts };
    for (const tx of block.txs) counts[tx.type] = (counts[tx.type] ?? 0) + 1;
    await store.writeBlock({
      block,
      commit,
      receipts,
      diff: stateDiff(prev, result.state),
      state: result.state,
      txCounts: counts,
    });
    this.current = result.state;
    this.txCounts = counts;

    const stale = mempool.onBlock(
      result.state,
      result.outcomes.map((o) => o.txHash),
    );
    for (const e of stale) {
      await store.putReceipt({
        tx_hash: e.hash,
        status: 'failed',
        block_height: null,
        timestamp: null,
        error: `replaced: nonce ${e.tx.nonce} was used by another transaction`,
        error_code: 'BAD_NONCE',
      });
    }
    const at = now();
    if (this.lastCommitAt !== null) metrics.blockInterval.observe((at - this.lastCommitAt) / 1000);
    this.lastCommitAt = at;
    block.txs.forEach((tx, i) => {
      const err = result.outcomes[i]?.error;
      if (err) metrics.failedTransactions.inc({ tx_type: tx.type, reason: err.code });
    });
    this.countMissedSlots(prev, result.state);
    this.refreshMetrics(result.state);
    logger.info('block committed', {
      height: h.height,
      hash: result.state.lastBlockHash,
      round: h.round,
      txs: block.txs.length,
      proposer: h.proposerAddress,
      ...(result.epochEvents.length > 0 ? { epoch_events: result.epochEvents } : {}),
    });
    await snapshots.maybeTake(result.state);
    for (const listener of this.listeners) listener(block, result);
  }

  private countMissedSlots(before: ChainState, after: ChainState): void {
    for (const [address, v] of after.validators) {
      const old = before.validators.get(address);
      const delta = v.slotsMissed - (old?.slotsMissed ?? 0);
      if (delta > 0) this.deps.metrics.missedSlots.inc({ validator: address }, delta);
    }
  }

  /**
   * Removes expired transactions; their receipts read failed / expired. Serialized with commits:
   * a transaction whose block is being written must not be marked expired over its confirmation.
   */
  expire(): Promise<number> {
    return this.serialized(() => this.expireNow());
  }

  private async expireNow(): Promise<number> {
    const expired = this.deps.mempool.expire();
    for (const e of expired) {
      await this.deps.store.putReceipt({
        tx_hash: e.hash,
        status: 'failed',
        block_height: null,
        timestamp: null,
        error: 'expired',
        error_code: 'EXPIRED',
      });
    }
    if (expired.length > 0) {
      this.deps.metrics.mempoolExpired.inc(expired.length);
      this.deps.logger.info('expired pending transactions', { count: expired.length });
    }
    this.deps.metrics.mempoolSize.set(this.deps.mempool.size);
    this.deps.metrics.mempoolBytes.set(this.deps.mempool.byteSize);
    return expired.length;
  }

  private refreshMetrics(s: ChainState): void {
    const m = this.deps.metrics;
    m.blockHeight.set(s.height);
    m.epoch.set(epochAt(s.height, s.params.epochLength));
    m.mempoolSize.set(this.deps.mempool.size);
    m.mempoolBytes.set(this.deps.mempool.byteSize);
    m.accounts.set(s.accounts.size);
    m.validatorCount.set(s.validators.size);
    let active = 0;
    let jailed = 0;
    for (const v of s.validators.values()) {
      if (v.status === 'ACTIVE') active++;
      if (v.status === 'JAILED') jailed++;
    }
    m.activeValidators.set(active);
    m.jailedValidators.set(jailed);
    m.totalMinted.set(Number(s.totals.minted));
    m.totalBurned.set(Number(s.totals.burned));
    m.treasury.set(Number(s.totals.treasury));
    m.totalSupply.set(Number(s.totals.genesisSupply + s.totals.minted - s.totals.burned));
    // The counter follows the chain's own per-type counts (stored with each block), so it
    // shows the chain's totals also after a restart.
    for (const type of TX_TYPES) {
      const delta = (this.txCounts[type] ?? 0) - (this.reported[type] ?? 0);
      if (delta > 0) m.transactions.inc({ tx_type: type }, delta);
      this.reported[type] = this.txCounts[type] ?? 0;
    }
  }
}
