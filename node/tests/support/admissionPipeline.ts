/**
 * The node's admission pipeline with the event loop's turns in the test's hands: `schedule`
 * records the flush instead of running it, and `endTurn()` runs what the turn scheduled (the
 * flush of everything that arrived in it), as setImmediate would once the turn's I/O is done.
 */
import type { ChainState, Tx } from '../../src/chain/index.js';
import { AdmissionQueue } from '../../src/mempool/admissionQueue.js';
import { DEFAULT_MEMPOOL_OPTIONS, Mempool, type MempoolOptions } from '../../src/mempool/mempool.js';
import { SignatureCache } from '../../src/mempool/signatureCache.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { Admission, type Waiter } from '../../src/service/admission.js';

export interface PipelineOptions {
  readonly maxBatch?: number;
  readonly mempool?: Partial<MempoolOptions>;
}

export function pipeline(state: ChainState, opts: PipelineOptions = {}) {
  const signatures = new SignatureCache();
  const mempool = new Mempool({ ...DEFAULT_MEMPOOL_OPTIONS, ...opts.mempool }, signatures, () => 0);
  const turns: (() => void)[] = [];
  const gossiped: Tx[][] = [];
  const admission = new Admission({
    queue: new AdmissionQueue<Waiter>(mempool, signatures),
    mempool,
    metrics: createMetrics(),
    state: () => state,
    onAdmittedFromRpc: (txs) => gossiped.push([...txs]),
    maxBatch: opts.maxBatch ?? 64,
    schedule: (work) => turns.push(work),
  });
  return {
    admission,
    turns,
    gossiped,
    mempool,
    signatures,
    /** Runs the work scheduled so far (not what it schedules in turn: that is the next turn's). */
    endTurn(): void {
      for (const work of turns.splice(0, turns.length)) work();
    },
    /** Ends turns until nothing is scheduled. */
    drain(): void {
      while (turns.length > 0) this.endTurn();
    },
  };
}
