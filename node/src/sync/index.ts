/**
 * The sync room's public face: what the rest of the node reaches of it (the composition root, the
 * consensus driver, the client's verified snapshot). Block sync (block/) fetches the blocks a node
 * is missing from its peers and serves its own, and says when the driver should run it instead of
 * waiting; state sync (state/) fills an empty store from a peer's snapshot, trusted only once it
 * is proven against the genesis, and serves this node's snapshots. Both score the peers they ask
 * (peerStanding.ts). Other rooms import this file, never one behind it; the room's own tests
 * import the files they test.
 */
export { BlockSync } from './block/blockSync.js';
export { BEHIND_TIMER, CatchUp } from './block/catchUp.js';
export { STALL_CHECK_MS } from './block/catchUpPolicy.js';
export { serveLaggards } from './block/haltLinger.js';
export { type PeerServiceEdges, startPeerServices } from './peerServices.js';
export { serveSnapshots } from './state/snapshotServer.js';
export { snapshotTrustProblem, type TrustedGenesis } from './state/snapshotTrust.js';
export { DEFAULT_STATE_SYNC_OPTIONS, StateSync } from './state/stateSync.js';
