/**
 * The votes of one kind (prevote or precommit) in one round. A quorum is more than 2/3 of the
 * validator count; `null` stands for nil.
 *
 * A validator's first vote is its vote for "more than 2/3 voted, for anything" and the one this
 * node sends again. For a given block (or nil), every signed vote for it counts, a validator's
 * second, conflicting one too (equivocation): the quorum for a block is the validators that
 * signed a vote for it, as in the paper. Counting only first votes let a Byzantine validator
 * that sent one version to some nodes and another to the rest stop the chain: the nodes that saw
 * its first version complete a polka and lock, the others never see that polka (they counted the
 * other version), so they refuse the locked block's re-proposal while the locked ones refuse
 * every other block, round after round (seen with `--byzantine equivocate`; simulated in
 * heightConsensus.test.ts). It stays safe: two quorums for different blocks in one round share
 * more than n/3 validators, so at least one honest one, which signs one vote per round and kind.
 *
 * Bounded: at most MAX_VERSIONS votes per validator. When a validator is at the bound, a vote for
 * a block someone else voted for too takes the place of one of its later votes that nobody else
 * shares (junk a Byzantine validator sent first cannot keep its real vote from counting).
 */
import { quorum, type Vote } from '../chain/index.js';

const MAX_VERSIONS = 4;

export class VoteSet {
  private readonly first = new Map<string, Vote>();
  /** Every signed vote by block hash, then validator. */
  private readonly byHash = new Map<string | null, Map<string, Vote>>();
  /** The hashes each validator signed a vote for, first one first. */
  private readonly versions = new Map<string, (string | null)[]>();

  constructor(private readonly validatorCount: number) {}

  /** Adds a vote; false when it adds nothing (the validator's vote for that hash is known, or it is over its bound). */
  add(vote: Vote): boolean {
    const { validator, blockHash } = vote;
    if (this.byHash.get(blockHash)?.has(validator)) return false;
    const signed = this.versions.get(validator) ?? [];
    if (signed.length >= MAX_VERSIONS) {
      const shared = (this.byHash.get(blockHash)?.size ?? 0) > 0;
      const lonely = signed.findIndex((h, i) => i > 0 && this.byHash.get(h)!.size === 1);
      if (!shared || lonely === -1) return false;
      this.byHash.get(signed[lonely]!)!.delete(validator);
      signed.splice(lonely, 1);
    }
    signed.push(blockHash);
    this.versions.set(validator, signed);
    let voters = this.byHash.get(blockHash);
    if (voters === undefined) {
      voters = new Map();
      this.byHash.set(blockHash, voters);
    }
    voters.set(validator, vote);
    if (!this.first.has(validator)) this.first.set(validator, vote);
    return true;
  }

  /** Validators that voted (for anything). */
  get size(): number {
    return this.first.size;
  }

  /** More than 2/3 voted, for anything. */
  hasQuorumAny(): boolean {
    return this.first.size >= quorum(this.validatorCount);
  }

  /** More than 2/3 signed a vote for `hash` (null: nil). */
  hasQuorumFor(hash: string | null): boolean {
    return (this.byHash.get(hash)?.size ?? 0) >= quorum(this.validatorCount);
  }

  /** The block hash (not nil) with more than 2/3 of the votes, if any (at most one: see above). */
  quorumBlock(): string | null {
    for (const [hash, voters] of this.byHash)
      if (hash !== null && voters.size >= quorum(this.validatorCount)) return hash;
    return null;
  }

  /** A validator's first vote. */
  voteOf(validator: string): Vote | undefined {
    return this.first.get(validator);
  }

  /** Every signed vote for `hash`, one per validator. */
  votesFor(hash: string): Vote[] {
    return [...(this.byHash.get(hash)?.values() ?? [])];
  }

  voters(): Iterable<string> {
    return this.first.keys();
  }
}
