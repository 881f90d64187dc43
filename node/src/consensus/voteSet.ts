/**
 * The votes of one kind (prevote or precommit) in one round: the first vote of each validator
 * counts, a conflicting second one is ignored (equivocation gains nothing). A quorum is more
 * than 2/3 of the validator count; `null` stands for nil.
 */
import { quorum, type Vote } from '../chain/index.js';

export class VoteSet {
  private readonly byValidator = new Map<string, Vote>();
  private readonly counts = new Map<string | null, number>();

  constructor(private readonly validatorCount: number) {}

  /** Adds a vote; false when the validator already voted in this set. */
  add(vote: Vote): boolean {
    if (this.byValidator.has(vote.validator)) return false;
    this.byValidator.set(vote.validator, vote);
    this.counts.set(vote.blockHash, (this.counts.get(vote.blockHash) ?? 0) + 1);
    return true;
  }

  get size(): number {
    return this.byValidator.size;
  }

  /** More than 2/3 voted, for anything. */
  hasQuorumAny(): boolean {
    return this.byValidator.size >= quorum(this.validatorCount);
  }

  /** More than 2/3 voted for `hash` (null: nil). */
  hasQuorumFor(hash: string | null): boolean {
    return (this.counts.get(hash) ?? 0) >= quorum(this.validatorCount);
  }

  /** The block hash (not nil) with more than 2/3 of the votes, if any. */
  quorumBlock(): string | null {
    for (const [hash, n] of this.counts) if (hash !== null && n >= quorum(this.validatorCount)) return hash;
    return null;
  }

  voteOf(validator: string): Vote | undefined {
    return this.byValidator.get(validator);
  }

  votesFor(hash: string): Vote[] {
    return [...this.byValidator.values()].filter((v) => v.blockHash === hash);
  }

  voters(): Iterable<string> {
    return this.byValidator.keys();
  }
}
