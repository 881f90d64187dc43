/** What one transaction rule sees besides the state: the block it executes in. */
import type { TxFailure } from '../errors.js';
import type { StateDraft } from '../state/draft.js';
import type { Tx } from '../tx/types.js';

export interface ComputeResult {
  readonly txHash: string;
  readonly taskId: string;
  readonly resultHash: string;
  readonly worker: string;
}

export interface BlockContext {
  readonly height: number;
  /** Block timestamp, Unix seconds: the only clock the rules know. */
  readonly timestamp: number;
  /** Epoch the block belongs to (epochOfBlock). */
  readonly epoch: number;
  readonly txHash: string;
  /** SUBMIT_RESULT records go here; the block's compute_root is their Merkle root. */
  readonly computeResults: ComputeResult[];
}

/**
 * One transaction type's rule. `check` looks and never writes; `cost` is what the sender pays
 * on top of the fee; `apply` runs only after every check passed and the sender can pay.
 */
export interface TxRule {
  check(d: StateDraft, tx: Tx, ctx: BlockContext): TxFailure | null;
  cost(d: StateDraft, tx: Tx): bigint;
  apply(d: StateDraft, tx: Tx, ctx: BlockContext): void;
}
