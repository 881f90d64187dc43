/**
 * How the consensus core gets its signatures: from a signer it is given, never from a key of its
 * own. The node's signer (CheckedSigner over <home>/priv_validator_state.json, node/privValidator.ts)
 * refuses to sign what would be double-signing after a restart; the core sends nothing for a
 * refused signature and goes on by timeouts. Signing is synchronous, as CometBFT's: the signature
 * must exist (and be on disk) before the core counts the vote or the driver publishes it.
 */
import type { Step } from './types.js';

export interface SignRequest {
  readonly height: number;
  readonly round: number;
  readonly step: Step;
  /** proposal_bytes or vote_bytes (docs/PROTOCOL.md, "Votes, proposals and commits"). */
  readonly signBytes: Uint8Array;
  /** The block signed for (null: a nil vote). A precommit for a block is this validator's lock. */
  readonly blockHash: string | null;
}

/** What a restarted validator signed at the height it enters: where to resume, locked on what. */
export interface Resume {
  /** The round of its last signature at this height: it starts there, not at round 0. */
  readonly round: number;
  /**
   * Its last signature at this height. A vote is counted and sent again (its peers may have lost
   * it as it did), and the validator resumes after that step: it signed nothing below it.
   */
  readonly last: { readonly step: Step; readonly blockHash: string | null; readonly signature: string };
  /** Its last precommit for a block at this height, if any (Tendermint's lock). */
  readonly lock: { readonly round: number; readonly blockHash: string } | null;
}

export interface ConsensusSigner {
  /** coinvalcons1… of the key. */
  readonly address: string;
  /** The signature (hex) of `request.signBytes`, or null when signing them is refused. */
  sign(request: SignRequest): string | null;
  /** What this validator signed at `height` before it (re)started; null when nothing. */
  resume(height: number): Resume | null;
}
