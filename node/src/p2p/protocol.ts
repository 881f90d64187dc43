/** Topic names and protocol ids of the peer-to-peer network (docs/PROTOCOL.md, "Peer-to-peer"). */
export const TOPIC_BLOCKS = '/chain/blocks/1.0.0';
export const TOPIC_TXS = '/chain/txs/1.0.0';
export const TOPIC_VOTES = '/chain/votes/1.0.0';
export const SYNC_PROTOCOL = '/chain/sync/1.0.0';
export const DHT_PROTOCOL = '/chain/kad/1.0.0';

/** Largest gossip message and sync response accepted, in bytes. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** State sync (docs/PROTOCOL.md, "Snapshot protocol", an extension): snapshot offers and chunks. */
export const SNAPSHOT_PROTOCOL = '/chain/snapshot/1.0.0';
