/** A consensus message from gossip: a proposal (/chain/blocks/1.0.0) or a vote (/chain/votes/1.0.0). */
import type { Proposal, Vote } from '../chain/index.js';

export type Message = { kind: 'proposal'; proposal: Proposal } | { kind: 'vote'; vote: Vote };

export const heightOf = (m: Message): number => (m.kind === 'vote' ? m.vote.height : m.proposal.height);

/** The validator that signed it. */
export const senderOf = (m: Message): string => (m.kind === 'vote' ? m.vote.validator : m.proposal.proposer);
