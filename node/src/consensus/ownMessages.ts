/**
 * This validator's own proposals and votes of one height, signed by the injected signer, which
 * may refuse one: it would double-sign after a restart, or its record could not be written (a full
 * disk). A refused vote is kept (`refused`) for HeightConsensus to sign again while it stays at
 * that step: where that vote is needed for more than 2/3, no timeout moves the height without it
 * (the seed search found a height that waited for ever, with two validators, after a disk was
 * full and then freed). Pure: the signer is the core's one edge.
 */
import {
  type Block,
  blockHash,
  type Proposal,
  proposalBytes,
  type Vote,
  type VoteKind,
  voteBytes,
} from '../chain/index.js';
import type { HeightContext } from './heightContext.js';
import type { ConsensusSigner, LockedBlock } from './signer.js';

/** A vote of this node that its signer refused, to sign again. */
export interface RefusedVote {
  readonly kind: VoteKind;
  readonly round: number;
  readonly hash: string | null;
  readonly locked?: LockedBlock;
}

export class OwnMessages {
  /** The last vote refused and not signed since (null: none). */
  refused: RefusedVote | null = null;

  constructor(
    private readonly ctx: HeightContext,
    readonly signer: ConsensusSigner,
  ) {}

  /** The proposal of `block` at `round` with `polRound`, signed; null when the signer refused. */
  proposal(round: number, block: Block, polRound: number): Proposal | null {
    const { chainId, height } = this.ctx;
    const hash = blockHash(block.header);
    const signature = this.signer.sign({
      height,
      round,
      step: 'propose',
      signBytes: proposalBytes(chainId, height, round, polRound, hash),
      blockHash: hash,
      proposed: { block, polRound },
    });
    if (signature === null) return null;
    return { height, round, polRound, blockHash: hash, block, proposer: this.signer.address, signature };
  }

  /**
   * The vote, signed (a precommit for a block hands the signer the block and its polka, kept with
   * the lock); null when the signer refused, which is kept as `refused`.
   */
  vote(v: RefusedVote): Vote | null {
    const { chainId, height } = this.ctx;
    const signature = this.signer.sign({
      height,
      round: v.round,
      step: v.kind,
      signBytes: voteBytes(chainId, v.kind, height, v.round, v.hash),
      blockHash: v.hash,
      ...(v.locked === undefined ? {} : { locked: v.locked }),
    });
    if (signature === null) {
      this.refused = v;
      return null;
    }
    if (this.refused === v) this.refused = null;
    const { kind, round, hash } = v;
    return { kind, height, round, blockHash: hash, validator: this.signer.address, signature };
  }
}
