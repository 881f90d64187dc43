/**
 * What the consensus gossip checks answer, with the reason, as Lodestar's chain/validation/*:
 * accept (valid, passed on), ignore (not for now: dropped, the sender not blamed) or reject
 * (malformed or forged: dropped and the sender penalized). Each message kind has its file here;
 * `toGossip` is the one place a verdict becomes the p2p layer's.
 */
import type { Verdict } from '../../p2p/network.js';

export type IgnoreReason =
  /** A height this node has already committed. */
  | 'stale-height'
  /** A height beyond the next one: this node is behind (block sync runs). */
  | 'far-ahead'
  /** The bound of messages kept for the next height is reached. */
  | 'next-height-full'
  /** Kept for the next height when the node stopped. */
  | 'stopped';

export type RejectReason =
  /** JSON that is not the topic's message (bytes that are not JSON throw: rejected by p2p/network.ts). */
  | 'malformed'
  /** Signed by no validator of the message's height. */
  | 'unknown-validator'
  /** The signature is not the named validator's over these contents. */
  | 'bad-signature';

export type GossipVerdict =
  | { readonly kind: 'accept' }
  | { readonly kind: 'ignore'; readonly reason: IgnoreReason }
  | { readonly kind: 'reject'; readonly reason: RejectReason };

export const ACCEPT = { kind: 'accept' } as const;
export const ignore = (reason: IgnoreReason) => ({ kind: 'ignore', reason }) as const;
export const reject = (reason: RejectReason) => ({ kind: 'reject', reason }) as const;

export function toGossip(v: GossipVerdict): Verdict {
  return v.kind;
}
