/**
 * Gossip checks of a vote (/chain/votes/1.0.0): [REJECT] bytes that are no vote (p2p/messages.ts
 * says why); then its height (height.ts) and, at the height being decided or a next height whose
 * validators are known, its signer and signature (signed.ts). Bytes that are not JSON at all
 * throw (p2p/messages.ts decodeJson), and the p2p layer rejects what a handler throws.
 */
import { type Vote, verifyVote } from '../../chain/index.js';
import { decodeVote } from '../../p2p/messages.js';
import type { Message } from '../message.js';
import { checkSigned, type SignedContext, type SignedVerdict } from './signed.js';
import { reject } from './verdict.js';

export function readVote(data: Uint8Array): Extract<Message, { kind: 'vote' }> | ReturnType<typeof reject> {
  const vote = decodeVote(data);
  return typeof vote === 'string' ? reject('malformed') : { kind: 'vote', vote };
}

/** Everything the signature covers, and the signature. */
export const voteMemo = (v: Vote): string =>
  `v:${v.kind}:${v.height}:${v.round}:${v.blockHash}:${v.validator}:${v.signature}`;

export function checkVote(vote: Vote, ctx: SignedContext): SignedVerdict {
  return checkSigned(vote.validator, voteMemo(vote), (pk) => verifyVote(ctx.chainId, vote, pk), ctx);
}
