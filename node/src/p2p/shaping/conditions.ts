/**
 * TEST ONLY (fault injection): the conditions of a node's p2p links, as the node holds them
 * (faults/netConditionsFile.ts reads them from <home>/net_conditions.json). Each rule names a peer
 * (or `*`, every peer) and a direction of this node's links: `out` shapes what this node sends to
 * the peer, `in` what it receives from it, both at this node. A devnet therefore shapes a directed
 * link A→B at A (A's `out`) or at B (B's `in`), without B's or A's help.
 *
 * `deafTo` is the one-way partition: the gossip and the answers of these peers never reach this
 * node's protocols, while what this node sends them still goes (p2p/network.ts). Pure: no I/O.
 */

export type Direction = 'out' | 'in';
export const DIRECTIONS: readonly Direction[] = ['out', 'in'];

/** What a rule may set; an absent field is not set by it. */
export interface LinkFields {
  /** Milliseconds added to each chunk's delivery, one way. */
  readonly latencyMs?: number;
  /** Up to this many ms more or less than the latency, drawn for each chunk (uniform, as netem). */
  readonly jitterMs?: number;
  /** The chance that a TCP segment is lost, 0 ≤ loss < 1: a loss costs a retransmission delay. */
  readonly loss?: number;
  /** Bits a second. On `*`: the node's whole uplink or downlink; on a peer: that link's own. */
  readonly rateBps?: number;
}

export interface LinkRule extends LinkFields {
  /** A peer id, or `*` for every peer. */
  readonly peer: string;
  readonly direction: Direction;
}

export interface NetConditions {
  readonly links: readonly LinkRule[];
  /** Peers whose messages this node does not receive (one-way partitions). */
  readonly deafTo: readonly string[];
}

export const NO_CONDITIONS: NetConditions = { links: [], deafTo: [] };

/** The line a node logs when its conditions change (a test waits for it), and its fields. */
export const NET_CONDITIONS_SET = 'net conditions set';
export const conditionsLogFields = (links: number, deafTo: number) => ({ links, deaf_to: deafTo });

/** One direction of one link as the shaper applies it. */
export interface LinkCondition {
  readonly latencyMs: number;
  readonly jitterMs: number;
  readonly loss: number;
  /** The link's own rate (a rule for this peer), or null. */
  readonly linkRateBps: number | null;
  /** The node's shared rate in this direction (the `*` rule), or null. */
  readonly sharedRateBps: number | null;
}

/** Whether a direction of a link is left as it is. */
export function isClear(c: LinkCondition): boolean {
  return (
    c.latencyMs === 0 &&
    c.jitterMs === 0 &&
    c.loss === 0 &&
    c.linkRateBps === null &&
    c.sharedRateBps === null
  );
}

/**
 * The condition of the link to `peer` in `direction`: the `*` rule's latency, jitter and loss,
 * each replaced by the peer's own rule where it sets it; the peer's rate as the link's own and the
 * `*` rule's as the node's shared one (a chunk waits for both).
 */
export function linkCondition(c: NetConditions, peer: string, direction: Direction): LinkCondition {
  const every = c.links.find((r) => r.peer === '*' && r.direction === direction);
  const own = c.links.find((r) => r.peer === peer && r.direction === direction);
  return {
    latencyMs: own?.latencyMs ?? every?.latencyMs ?? 0,
    jitterMs: own?.jitterMs ?? every?.jitterMs ?? 0,
    loss: own?.loss ?? every?.loss ?? 0,
    linkRateBps: own?.rateBps ?? null,
    sharedRateBps: every?.rateBps ?? null,
  };
}
