/**
 * Gossip checks of a proposal (/chain/blocks/1.0.0): [REJECT] bytes that are no proposal
 * (p2p/messages.ts says why: a malformed block, a block hash that is not the header's…); then its
 * height (height.ts) and, at the height being decided or a next height whose validators are
 * known, its proposer and signature (signed.ts). Whether the block itself is valid is not a gossip
 * check: the core prevotes nil on an invalid one (driver/blockValidity.ts), and it is passed on. Bytes
 * that are not JSON at all throw (p2p/messages.ts decodeJson), and the p2p layer rejects what a
 * handler throws.
 */

import type { Proposal } from '../../chain/index.js';
import { verifyProposalSignature } from '../../chain/index.js';
import { decodeProposal } from '../../p2p/messages.js';
import type { Message } from '../message.js';
import { checkSigned, type SignedContext, type SignedVerdict } from './signed.js';
import { reject } from './verdict.js';

export function readProposal(
  data: Uint8Array,
): Extract<Message, { kind: 'proposal' }> | ReturnType<typeof reject> {
  const proposal = decodeProposal(data);
  return typeof proposal === 'string' ? reject('malformed') : { kind: 'proposal', proposal };
}

/** Everything the signature covers, and the signature. */
export const proposalMemo = (p: Proposal): string =>
  `p:${p.height}:${p.round}:${p.polRound}:${p.blockHash}:${p.proposer}:${p.signature}`;

export function checkProposal(p: Proposal, ctx: SignedContext): SignedVerdict {
  return checkSigned(p.proposer, proposalMemo(p), (pk) => verifyProposalSignature(ctx.chainId, p, pk), ctx);
}
