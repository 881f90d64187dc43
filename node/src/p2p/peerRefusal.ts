/**
 * Which peers a node refuses under fault injection (<home>/blocked_peers.json, faults/blockedPeers.ts):
 * the peers listed, or, with `allowOnly`, every peer but those listed (none listed: every peer).
 * "Every peer" is what cuts a node off: a list of the validators left a stranger that dialled in
 * free to talk to it (and to serve it block sync).
 */
export interface PeerRefusal {
  readonly allowOnly: boolean;
  readonly peers: readonly string[];
}

/** Refuses nobody. */
export const REFUSE_NONE: PeerRefusal = { allowOnly: false, peers: [] };

export function refuses(rule: PeerRefusal, peer: string): boolean {
  return rule.peers.includes(peer) !== rule.allowOnly;
}
