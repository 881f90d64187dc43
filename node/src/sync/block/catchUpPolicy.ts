/**
 * When a node fetches blocks by block sync instead of waiting for consensus messages: pure rules
 * over the times the driver keeps (docs/CONSENSUS.md, "Behind"). The driver asks `onTick` every
 * STALL_CHECK_MS (not while it commits: a commit in progress is progress) and `behindGraceMs` when a message of the next height arrives; a message beyond
 * the next height starts a sync at once (verdicts/height.ts, far ahead).
 */

/** How often the driver asks whether the node is stalled or has heard nothing for a while. */
export const STALL_CHECK_MS = 250;
/**
 * How long a node still deciding a height waits for its own decision after a message of the next
 * height showed that peers have decided it, before it fetches the block by block sync. The
 * decision's last precommits are usually a few gossip hops behind such a message.
 */
export const BEHIND_GRACE_MS = 400;
/**
 * Silence (no proposal or vote of the height) after which a node still deciding a height asks a
 * few peers whether they have decided it. Every node asks during a stopped proposer's slot, so
 * each asks SILENCE_ASK_PEERS peers, not all.
 */
export const SILENCE_MS = 1000;
export const SILENCE_ASK_PEERS = 4;

export interface Quiet {
  readonly now: number;
  readonly blockTimeMs: number;
  /** When the height last moved: entered, or a proposal or vote of it arrived. */
  readonly lastProgressAt: number;
  /** When this node last asked a few peers about a silent height. */
  readonly askedAt: number;
  /** Whether the height is still to be decided here (not committing, not committed by sync). */
  readonly deciding: boolean;
}

export type CatchUp =
  | { readonly kind: 'none' }
  /** The height has not moved for max(3 s, 5 block times): ask every peer. */
  | { readonly kind: 'stalled' }
  /** Nothing of an undecided height for max(1 s, a block time): ask a few peers, once a second. */
  | { readonly kind: 'silent'; readonly askPeers: number; readonly quietMs: number };

/**
 * Block sync when the height has not moved for a while (asking every peer), and sooner when
 * nothing of the height has arrived for a second while it is still undecided (asking a few):
 * the others have most likely decided it and moved on, and this node lost the messages in
 * gossip. Were it the next proposer, waiting out the long stall would cost its slot, since the
 * others wait for its proposal only the propose timeout.
 */
export function onTick(q: Quiet): CatchUp {
  const quietMs = q.now - q.lastProgressAt;
  if (quietMs > Math.max(3000, 5 * q.blockTimeMs)) return { kind: 'stalled' };
  if (q.deciding && quietMs > Math.max(SILENCE_MS, q.blockTimeMs) && q.now - q.askedAt > SILENCE_MS)
    return { kind: 'silent', askPeers: SILENCE_ASK_PEERS, quietMs };
  return { kind: 'none' };
}

/**
 * How long to wait for this node's own decision once a message of the next height arrived. A
 * node that has heard nothing of its height from anyone, in the grace time since it entered it,
 * will not get the decision by gossip: it missed those messages (it connected after they were
 * sent, as the last node of a devnet to start did). It fetches the block now.
 */
export function behindGraceMs(heard: boolean, heightStartedAt: number, now: number): number {
  return heard ? BEHIND_GRACE_MS : Math.max(0, heightStartedAt + BEHIND_GRACE_MS - now);
}
