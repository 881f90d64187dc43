/**
 * Which peers a node refuses at the handshake (docs/PROTOCOL.md, "Versions on the wire"): a node
 * tells its peers its versions and its chain in identify's agent version, `chain-node/<node
 * version> p2p/<p2p version> genesis/<first 16 hex of its genesis hash>`, and refuses a peer whose
 * p2p version has another MAJOR, or that names another genesis (a sister devnet: the same seed, so
 * the same validator keys, another genesis time; their votes are validly signed by the same keys
 * and would look like equivocation), with the reason. A peer that names no p2p version is left to
 * the protocol ids (its topics and streams carry theirs, and one of another version never meets
 * ours); one that names no genesis (an older build, a tool) is left alone too: what it serves is
 * still checked (state sync holds a snapshot to the genesis it names: sync/state/snapshotTrust.ts).
 */
import { parseSemVer } from '../chain/index.js';
import { P2P_VERSION } from './protocol.js';

/** How much of the genesis hash a node announces: 64 bits tell honest chains apart. */
export const ANNOUNCED_GENESIS_HEX = 16;

/** The agent version this node announces; without a genesis hash, none is named. */
export function agentVersion(
  nodeVersion: string,
  p2pVersion: string = P2P_VERSION,
  genesisHash: string | null = null,
): string {
  const genesis = genesisHash === null ? '' : ` genesis/${genesisHash.slice(0, ANNOUNCED_GENESIS_HEX)}`;
  return `chain-node/${nodeVersion} p2p/${p2pVersion}${genesis}`;
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

/** Why a peer announcing `agent` is of another chain than the genesis `ours`, or null (it names none, or ours). */
export function otherGenesis(agent: string | undefined, ours: string): string | null {
  const theirs = /(?:^|\s)genesis\/(\S+)/.exec(agent ?? '')?.[1];
  if (theirs === undefined) return null;
  const mine = ours.slice(0, ANNOUNCED_GENESIS_HEX);
  if (!new RegExp(`^[0-9a-f]{${ANNOUNCED_GENESIS_HEX}}$`).test(theirs))
    return `its genesis ${JSON.stringify(theirs.slice(0, 40))} is not ${ANNOUNCED_GENESIS_HEX} lowercase hex digits`;
  if (theirs !== mine)
    return `it is of genesis ${theirs}…, ours is ${mine}…: another chain (a devnet of the same seed made at another time has the same keys)`;
  return null;
}

/** A refusal at the handshake: the log line's message and the reason. */
export interface HandshakeRefusal {
  readonly message: string;
  readonly reason: string;
}

/** Why a node of p2p version `p2pVersion` and genesis `genesisHash` (null: none checked) refuses `agent`, or null. */
export function handshakeRefusal(
  agent: string | undefined,
  p2pVersion: string,
  genesisHash: string | null,
): HandshakeRefusal | null {
  const version = incompatibility(agent, p2pVersion);
  if (version !== null)
    return { message: 'peer refused: incompatible p2p protocol version', reason: version };
  const genesis = genesisHash === null ? null : otherGenesis(agent, genesisHash);
  if (genesis !== null) return { message: 'peer refused: another genesis', reason: genesis };
  return null;
}
