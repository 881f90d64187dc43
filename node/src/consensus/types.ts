/** Messages and actions of the consensus core (docs/CONSENSUS.md). */
import type { Block, Commit, Vote } from '../chain/index.js';

/** A block proposed for (height, round) by that round's proposer; polRound >= 0 re-proposes a block that had 2/3 prevotes then. */
export interface Proposal {
  readonly height: number;
  readonly round: number;
  readonly polRound: number;
  readonly block: Block;
  readonly blockHash: string;
  /** coinvalcons1… of the round's proposer, and its signature over the proposal bytes. */
  readonly proposer: string;
  readonly signature: string;
}

export type Step = 'propose' | 'prevote' | 'precommit';

export type ConsensusAction =
  | { readonly kind: 'broadcast-proposal'; readonly proposal: Proposal }
  | { readonly kind: 'broadcast-vote'; readonly vote: Vote }
  | {
      readonly kind: 'schedule-timeout';
      readonly step: Step;
      readonly height: number;
      readonly round: number;
      readonly ms: number;
    }
  | { readonly kind: 'decide'; readonly block: Block; readonly commit: Commit; readonly blockHash: string };

export interface Timeouts {
  propose(round: number): number;
  prevote(round: number): number;
  precommit(round: number): number;
}

/** Defaults: generous enough for a loaded 2-core machine (21 validators at 1 s blocks keep both cores busy, and a proposer or a relay waiting 1 s for a core cost slots at a 1 s propose timeout), growing per round so that rounds eventually overlap. */
export const DEFAULT_TIMEOUTS: Timeouts = {
  propose: (r) => 1500 + 500 * r,
  prevote: (r) => 500 + 250 * r,
  precommit: (r) => 500 + 250 * r,
};
