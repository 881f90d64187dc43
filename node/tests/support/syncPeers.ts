/**
 * TEST ONLY: the honest ends of block sync over real libp2p, with the node's own network class:
 * a peer serving a chain with the node's BlockSync, and a node that is behind (a test node core
 * with its RPC, on a network of its own). The lying end is roguePeer.ts.
 */

import { createLogger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import { utf8Bytes } from '../../src/crypto/hash.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { P2PNetwork } from '../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../src/p2p/peerKey.js';
import type { ChainService } from '../../src/service/chainService.js';
import { BlockSync } from '../../src/sync/block/blockSync.js';
import { type Harness, makeHarness } from './harness.js';

export interface PeerOptions {
  /** Names the peer's key (the same name, the same peer id). */
  readonly name: string;
  readonly port: number;
  /** Multiaddrs (with /p2p/) to connect to. */
  readonly bootstrap?: readonly string[];
}

export async function startNetwork(o: PeerOptions): Promise<P2PNetwork> {
  return P2PNetwork.start({
    privateKey: await peerKeyFromSeed(utf8Bytes(`sync-peer-${o.name}`)),
    listenHost: '127.0.0.1',
    listenPort: o.port,
    bootstrap: [...(o.bootstrap ?? [])],
    logger: createLogger({ level: 'error' }),
  });
}

/** A network of `o` (its bootstrap a node's multiaddr), once it is connected to that node, `peerId`. */
export async function startNetworkConnectedTo(o: PeerOptions, peerId: string): Promise<P2PNetwork> {
  const network = await startNetwork(o);
  try {
    await waitFor(`${o.name} connected to ${peerId}`, 15_000, async () =>
      network.connectedPeers().includes(peerId) ? true : null,
    );
  } catch (e) {
    await network.stop();
    throw e;
  }
  return network;
}

/** The address another peer dials to reach `network` listening on `port`. */
export function addressOf(network: P2PNetwork, port: number): string {
  return `/ip4/127.0.0.1/tcp/${port}/p2p/${network.peerId}`;
}

/** An honest peer: the node's own block sync service over `service`'s chain. */
export async function servingPeer(service: ChainService, o: PeerOptions): Promise<P2PNetwork> {
  const network = await startNetwork(o);
  const logger = createLogger({ level: 'error' });
  await new BlockSync(service, network, createMetrics(), logger).serve();
  return network;
}

/**
 * An honest peer (servingPeer) named `honest` on `port` that dials `behindAddress`; resolves once
 * `behind` sees it. Its stop is handed to `track` first, so a failed wait still takes it apart.
 */
export async function honestPeerJoining(
  service: ChainService,
  behind: P2PNetwork,
  behindAddress: string,
  port: number,
  track: (stop: () => Promise<unknown>) => void,
): Promise<P2PNetwork> {
  const honest = await servingPeer(service, { name: 'honest', port, bootstrap: [behindAddress] });
  track(() => honest.stop());
  await waitFor('the node connected to the honest peer', 15_000, async () =>
    behind.connectedPeers().includes(honest.peerId) ? true : null,
  );
  return honest;
}

/** A node core (harness: service, RPC) with no block yet, on a libp2p network of its own. */
export async function behindNode(
  o: PeerOptions,
): Promise<{ harness: Harness; network: P2PNetwork; address: string; stop: () => Promise<void> }> {
  const harness = await makeHarness();
  let network: P2PNetwork;
  try {
    network = await startNetwork(o);
  } catch (e) {
    await harness.close();
    throw e;
  }
  return {
    harness,
    network,
    address: addressOf(network, o.port),
    stop: async () => {
      await network.stop();
      await harness.close();
    },
  };
}
