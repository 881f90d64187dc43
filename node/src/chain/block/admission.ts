/**
 * Mempool admission, the pure part: would `tx` be valid if the sender's already-queued
 * transactions (in nonce order) executed first? They run on a throw-away draft, so a queued
 * STAKE makes a following UPDATE_VALIDATOR admissible, and balances and nonces account for
 * what is queued. Signatures are not checked here (the node does that once, by hash).
 */
import type { TxFailure } from '../errors.js';
import type { BlockContext } from '../execute/context.js';
import { checkTx, executeTx } from '../execute/executeTx.js';
import { StateDraft } from '../state/draft.js';
import { type ChainState, epochOfBlock } from '../state/types.js';
import type { Tx } from '../tx/types.js';

export function checkAdmission(
  state: ChainState,
  queuedFromSender: readonly Tx[],
  tx: Tx,
  at: { readonly timestamp: number },
): TxFailure | null {
  const d = new StateDraft(state);
  const height = state.height + 1;
  const ctx: BlockContext = {
    height,
    timestamp: at.timestamp,
    epoch: epochOfBlock(height, state.params.epochLength),
    txHash: '',
    computeResults: [],
  };
  for (const queued of queuedFromSender) executeTx(d, queued, ctx);
  return checkTx(d, tx, ctx);
}
