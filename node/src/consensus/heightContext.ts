/** What the core of one height is given (heightConsensus.ts): who votes, who signs, what is valid. */
import type { Block, Validator } from '../chain/index.js';
import type { ConsensusSigner } from './signer.js';
import type { Timeouts } from './types.js';

export interface HeightContext {
  readonly chainId: string;
  readonly height: number;
  /** The active set for this height, in proposer order (the state after height - 1). */
  readonly validators: readonly Validator[];
  /** This validator's signer when it is in the active set; null for an observer. */
  readonly signer: ConsensusSigner | null;
  /** Whether a proposed block is valid on top of the last committed state (cached by the caller). */
  isValid(block: Block): boolean;
  /** A new block for `round` from this node's mempool; only called when this node proposes. */
  build(round: number): Block;
  readonly timeouts: Timeouts;
}
