/**
 * Topic names and protocol ids of the peer-to-peer network (docs/PROTOCOL.md, "Peer-to-peer"),
 * each carrying the version of the p2p protocol: the wire format of these messages, which is not
 * the chain's protocol version (a minor upgrade of the chain keeps the wire). Peers whose p2p
 * version has another MAJOR are refused (p2p/versionCheck.ts).
 */
export const P2P_VERSION = '1.0.0';
export const TOPIC_BLOCKS = `/chain/blocks/${P2P_VERSION}`;
export const TOPIC_TXS = `/chain/txs/${P2P_VERSION}`;
export const TOPIC_VOTES = `/chain/votes/${P2P_VERSION}`;
export const SYNC_PROTOCOL = `/chain/sync/${P2P_VERSION}`;
export const DHT_PROTOCOL = `/chain/kad/${P2P_VERSION}`;

/** Largest gossip message and sync response accepted, in bytes. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** State sync (docs/PROTOCOL.md, "Snapshot protocol", an extension): snapshot offers and chunks. */
export const SNAPSHOT_PROTOCOL = `/chain/snapshot/${P2P_VERSION}`;
/**
 * TEST ONLY (fault injection): the link probe (docs/PROTOCOL.md, "Network conditions"): a round
 * trip and a transfer each way over the shaped link, served only by a node with --fault-injection.
 */
export const PROBE_PROTOCOL = `/chain/probe/${P2P_VERSION}`;
/** The largest transfer a probe makes each way (below a message's bound, with its kind byte). */
export const MAX_PROBE_BYTES = MAX_MESSAGE_BYTES - 16;
