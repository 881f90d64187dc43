/**
 * The commit pipeline: a block is stored with its commit, then the mempool, the metrics, the log,
 * snapshots and the commit listeners follow, in that order. Commits and mempool expiry run one at
 * a time (serialized), so a transaction whose block is being written is never marked expired
 * over its confirmation.
 */
import {
  activeValidators,
  type Block,
  BlockError,
  type BlockResult,
  blockHash,
  type Commit,
  commitProblem,
  commitShapeProblem,
  stateDiff,
} from '../chain/index.js';
import { isWriteFailed } from '../store/errors.js';
import type { StoredReceipt } from '../store/receipts.js';
import type { ChainGauges } from './chainGauges.js';
import type { ChainHead } from './chainHead.js';
import type { ChainServiceDeps } from './deps.js';

export type CommitListener = (block: Block, result: BlockResult) => void;

export class CommitPipeline {
  private lastCommitAt: number | null = null;
  private committing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: Pick<
      ChainServiceDeps,
      'store' | 'mempool' | 'metrics' | 'logger' | 'snapshots' | 'now' | 'health'
    >,
    private readonly head: ChainHead,
    private readonly gauges: ChainGauges,
    private readonly validate: (block: Block) => BlockResult,
    private readonly listeners: readonly CommitListener[],
  ) {}

  /**
   * Commits `block` when it is the next one (false otherwise): its commit must be for it and, with
   * `verifySignatures`, hold only valid precommits (commitProblem); else its shape is checked
   * (commitShapeProblem). `known` is the execution result already computed, if any.
   */
  commitNext(block: Block, commit: Commit, verifySignatures: boolean, known?: BlockResult): Promise<boolean> {
    return this.serialized(async () => {
      const state = this.head.state;
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
      await this.commitBlock(block, commit, known ?? this.validate(block));
      return true;
    });
  }

  /** Removes expired transactions; their receipts read failed / expired. Serialized with commits. */
  expire(): Promise<number> {
    return this.serialized(() => this.expireNow());
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.committing.then(work, work);
    this.committing = next.catch(() => undefined);
    return next;
  }

  /** A write of the store, its failure or success told to the disk's health (which logs a failure once). */
  private async written(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (isWriteFailed(e)) this.deps.health.failed('store', (e as Error).cause ?? e);
      throw e;
    }
    this.deps.health.succeeded('store');
  }

  private async commitBlock(block: Block, commit: Commit, result: BlockResult): Promise<void> {
    const { store, mempool, metrics, logger, snapshots, now } = this.deps;
    const prev = this.head.state;
    const h = block.header;
    const receipts: StoredReceipt[] = result.outcomes.map((o) => ({
      tx_hash: o.txHash,
      status: o.error ? 'failed' : 'confirmed',
      block_height: h.height,
      timestamp: h.timestamp,
      error: o.error?.message ?? null,
      error_code: o.error?.code ?? null,
    }));
    const counts = { ...this.head.txCounts };
    for (const tx of block.txs) counts[tx.type] = (counts[tx.type] ?? 0) + 1;
    await this.written(() =>
      store.writeBlock({
        block,
        commit,
        receipts,
        diff: stateDiff(prev, result.state),
        state: result.state,
        txCounts: counts,
      }),
    );
    this.head.set(result.state, counts);

    const stale = mempool.onBlock(
      result.state,
      result.outcomes.map((o) => o.txHash),
    );
    for (const e of stale) {
      await this.written(() =>
        store.putReceipt({
          tx_hash: e.hash,
          status: 'failed',
          block_height: null,
          timestamp: null,
          error: `replaced: nonce ${e.tx.nonce} was used by another transaction`,
          error_code: 'BAD_NONCE',
        }),
      );
    }
    const at = now();
    if (this.lastCommitAt !== null) metrics.blockInterval.observe((at - this.lastCommitAt) / 1000);
    this.lastCommitAt = at;
    block.txs.forEach((tx, i) => {
      const err = result.outcomes[i]?.error;
      if (err) metrics.failedTransactions.inc({ tx_type: tx.type, reason: err.code });
    });
    this.gauges.countMissedSlots(prev, result.state);
    this.gauges.refresh(result.state, counts);
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

  private async expireNow(): Promise<number> {
    const { mempool, store, metrics, logger } = this.deps;
    const expired = mempool.expire();
    for (const e of expired) {
      await this.written(() =>
        store.putReceipt({
          tx_hash: e.hash,
          status: 'failed',
          block_height: null,
          timestamp: null,
          error: 'expired',
          error_code: 'EXPIRED',
        }),
      );
    }
    if (expired.length > 0) {
      metrics.mempoolExpired.inc(expired.length);
      logger.info('expired pending transactions', { count: expired.length });
    }
    metrics.mempoolSize.set(mempool.size);
    metrics.mempoolBytes.set(mempool.byteSize);
    return expired.length;
  }
}
