/**
 * What the driver needs of a Byzantine test validator (`--byzantine equivocate`): the second,
 * different version of each of its own messages. The test-only implementation lives with the
 * other faults (faults/equivocator.ts), so consensus never imports it.
 */
import type { Proposal, Vote } from '../../chain/index.js';

export interface Equivocator {
  /** The other vote for the same step. */
  twinVote(chainId: string, v: Vote): Vote;
  /** Another proposal for the same round. */
  twinProposal(chainId: string, p: Proposal): Proposal;
}
