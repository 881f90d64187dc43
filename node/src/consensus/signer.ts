/**
 * How the consensus core gets its signatures: from a signer it is given, never from a key of its
 * own. The node's signer (CheckedSigner over <home>/priv_validator_state.json, home/privValidator.ts)
 * refuses to sign what would be double-signing after a restart; the core sends nothing for a
 * refused signature and goes on by timeouts. Signing is synchronous, as CometBFT's: the signature
 * must exist (and be on disk) before the core counts the vote or the driver publishes it.
 */
import type { Block, Vote } from '../chain/index.js';
import type { Step } from './types.js';

export interface SignRequest {
  readonly height: number;
  readonly round: number;
  readonly step: Step;
  /** proposal_bytes or vote_bytes (docs/PROTOCOL.md, "Votes, proposals and commits"). */
  readonly signBytes: Uint8Array;
  /** The block signed for (null: a nil vote). A precommit for a block is this validator's lock. */
  readonly blockHash: string | null;
  /** Given with a precommit for a block: the block and its polka, which the signer keeps with the lock. */
  readonly locked?: LockedBlock;
  /** Given with a proposal: its block and pol_round, which the signer keeps with the signature. */
  readonly proposed?: { readonly block: Block; readonly polRound: number };
}

/**
 * The last proposal a validator signed, whole. A proposer stopped between signing it and the
 * height's decision (a whole network paused mid-height) must send that same proposal again when
 * it resumes: it may sign no other for that round, and its peers lost the one they had. Without
 * it the round could only time out and the slot be counted missed, with nobody down.
 */
export interface KeptProposal {
  readonly block: Block;
  readonly round: number;
  readonly polRound: number;
  readonly signature: string;
}

/**
 * The block a validator locks on and the proof that it may: the prevotes (more than 2/3) for it
 * in `round` (Tendermint's proof of lock). A restarted validator needs both to re-propose the
 * block: its peers prevote a re-proposal only with those prevotes in hand, and so does it.
 */
export interface LockedBlock {
  readonly block: Block;
  readonly round: number;
  readonly prevotes: readonly Vote[];
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
  /**
   * Its last precommit for a block at this height, if any (Tendermint's lock), with the block and
   * its polka when they were kept (null: a lost or unreadable locked-block file).
   */
  readonly lock: {
    readonly round: number;
    readonly blockHash: string;
    readonly kept: LockedBlock | null;
  } | null;
  /** The proposal it signed in `round` when it was that round's proposer and it was kept (null otherwise). */
  readonly proposal: KeptProposal | null;
}

export interface ConsensusSigner {
  /** coinvalcons1… of the key. */
  readonly address: string;
  /** The signature (hex) of `request.signBytes`, or null when signing them is refused. */
  sign(request: SignRequest): string | null;
  /** What this validator signed at `height` before it (re)started; null when nothing. */
  resume(height: number): Resume | null;
}
