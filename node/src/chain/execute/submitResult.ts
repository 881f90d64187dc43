/**
 * SUBMIT_RESULT: commits a compute result (task_id, result_hash) on chain. It changes no
 * balance beyond the fee; the block's compute_root is the Merkle root of its results.
 */

import { requireZeroAmount } from './common.js';
import type { TxRule } from './context.js';

export const submitResultRule: TxRule = {
  check: (_d, tx) => requireZeroAmount(tx),
  cost: () => 0n,
  apply(_d, tx, ctx) {
    ctx.computeResults.push({
      txHash: ctx.txHash,
      taskId: tx.payload.taskId!,
      resultHash: tx.payload.resultHash!,
      worker: tx.from,
    });
  },
};
