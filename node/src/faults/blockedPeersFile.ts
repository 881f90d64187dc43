/**
 * TEST ONLY (fault injection): the forms of <home>/blocked_peers.json, read by the node
 * (blockedPeers.ts, with --fault-injection) and written by the devnet and the tests:
 *   ["<peer id>", …]               refuse these peers (the first form; still valid)
 *   {"allow": ["<peer id>", …]}    refuse every peer but these ({"allow": []}: every peer)
 * Pure text in and out, apart from the network that honours it: what `@chain-devnet/node/testnet`
 * exports from here reaches no libp2p or Koa type.
 */
import type { PeerRefusal } from '../p2p/peerRefusal.js';

export const BLOCKED_PEERS_FILE = 'blocked_peers.json';

const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The file's rule, or null when its text is neither form. */
export function parseBlockedPeers(text: string): PeerRefusal | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  if (isIdList(j)) return { allowOnly: false, peers: j };
  if (typeof j === 'object' && j !== null && !Array.isArray(j)) {
    const keys = Object.keys(j);
    const allow = (j as { allow?: unknown }).allow;
    if (keys.length === 1 && isIdList(allow)) return { allowOnly: true, peers: allow };
  }
  return null;
}

/** The file's text for `rule` (the array form when it lists the refused peers), sorted, one id each. */
export function formatBlockedPeers(rule: PeerRefusal): string {
  const ids = [...new Set(rule.peers)].sort();
  return `${JSON.stringify(rule.allowOnly ? { allow: ids } : ids)}\n`;
}
