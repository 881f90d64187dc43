/**
 * Which peers speak an incompatible p2p protocol (docs/PROTOCOL.md, "Versions on the wire"): a
 * node tells its peers its versions in identify's agent version, `chain-node/<node version>
 * p2p/<p2p version>`, and refuses a peer whose p2p version has another MAJOR, with the reason.
 * A peer that names no p2p version is left to the protocol ids: its topics and streams carry
 * theirs, and one of another version never meets ours.
 */
import { parseSemVer } from '../chain/index.js';
import { P2P_VERSION } from './protocol.js';

/** The agent version this node announces. */
export function agentVersion(nodeVersion: string, p2pVersion: string = P2P_VERSION): string {
  return `chain-node/${nodeVersion} p2p/${p2pVersion}`;
}

/** Why a peer announcing `agent` is refused by a node of p2p version `ours`, or null. */
export function incompatibility(agent: string | undefined, ours: string = P2P_VERSION): string | null {
  const theirs = /(?:^|\s)p2p\/(\S+)/.exec(agent ?? '')?.[1];
  if (theirs === undefined) return null;
  const t = parseSemVer(theirs);
  const o = parseSemVer(ours);
  if (t === null) return `its p2p version ${JSON.stringify(theirs.slice(0, 40))} is not MAJOR.MINOR.PATCH`;
  if (o !== null && t.major !== o.major)
    return `its p2p protocol ${theirs} has another major version than ours (${ours}): incompatible`;
  return null;
}
