/** Messages and actions of the consensus core (docs/CONSENSUS.md). */
import type { Block, Commit, Proposal, Vote } from '../chain/index.js';

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

/**
 * Defaults. The propose timeout is CometBFT's (3 s, plus 0.5 s a round): a proposer enters its
 * height when it has committed the one before, and on a loaded machine some node commits well
 * after the first (21 validators at 1 s blocks on 2 cores: p99 0.8 s behind, and 2.2–3.4 s a
 * dozen times in 300 heights; docs/BENCHMARKS.md). At 1.5 s such a proposer's slot was missed in
 * about every other run although it was up and proposing. The price: a stopped proposer's slot
 * takes 3 s. Votes wait less (they come from everyone, so one late node does not hold them up).
 * Every timeout grows by round so that rounds eventually overlap.
 */
export const DEFAULT_TIMEOUTS: Timeouts = {
  propose: (r) => 3000 + 500 * r,
  prevote: (r) => 500 + 250 * r,
  precommit: (r) => 500 + 250 * r,
};

/**
 * How long after a start no round 0 of any height times out (DriverOptions.startGraceMs): nodes of a network started together came up 3-6 s apart on a loaded 2-core
 * machine (docker and swarm runtime suites, a whole devnet resumed), so the early ones timed the
 * late proposer out, or (resumed after their votes) gave up on round 0 before the proposer's
 * precommit came, and a slot was counted missed with nobody down.
 */
export const START_GRACE_MS = 15_000;
