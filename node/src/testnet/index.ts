/**
 * A network of nodes from a seed (`@chain-devnet/node/testnet`): the one generator of keys,
 * ports, peers and genesis (chain-node init and testnet, the devnet), and the files of each
 * node's home.
 */
// How a node of a network may be started besides its home: the test-only Byzantine modes.

// The fault injection's disk faults (a full disk, slow writes and fsyncs, unsynced writes lost to a kill).
export {
  DISK_FAULTS_FILE,
  type DiskFaults,
  diskFaultsToJson,
  formatDiskFaults,
  isDiskFaultsProblem,
  NO_DISK_FAULTS,
  noDiskFault,
  parseDiskFaults,
} from '../disk/faults.js';
// The fault injection's file of refused peers (disconnect, partition) and its two forms.
export { BLOCKED_PEERS_FILE, parseBlockedPeers } from '../faults/blockedPeersFile.js';
export { BYZANTINE_MODES, type ByzantineMode } from '../faults/equivocator.js';
// The fault injection's file of link conditions and one-way partitions, and its form.
export {
  formatNetConditions,
  NET_CONDITIONS_FILE,
  NET_LIMITS,
  type ParsedConditions,
  parseNetConditions,
} from '../faults/netConditionsFile.js';
export type { KeyFile } from '../home/keyFile.js';
export type { NodeFile } from '../home/nodeFile.js';
export { peerIdOf } from '../p2p/peerKey.js';
export { type PeerRefusal, refuses } from '../p2p/peerRefusal.js';
export type { Direction, LinkRule, NetConditions } from '../p2p/shaping/conditions.js';
export * from './homes.js';
export * from './network.js';
export * from './ports.js';
export { type StoredChain, storedChain } from './storedChain.js';
export { storedHeight } from './storedHeight.js';
export { dialedIndexes, FULL_MESH_NODES } from './topology.js';
