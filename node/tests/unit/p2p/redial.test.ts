/**
 * Bootstrap peers are persistent: a node dials again a bootstrap peer it lost. Here the peer
 * restarts (same key, same port) and does not list the node itself, so only the node's redial
 * can bring the two back together; libp2p's bootstrap dials once, at start.
 */
import { after, describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../../../src/p2p/peerKey.js';

describe('P2PNetwork bootstrap peers', () => {
  const running: P2PNetwork[] = [];
  after(async () => {
    await Promise.all(running.map((n) => n.stop().catch(() => undefined)));
  });

  it('a bootstrap peer that went away and came back is dialled again', { timeout: 60_000 }, async () => {
    const base = await freeBasePort((b) => [b, b + 1]);
    const keys = await Promise.all(
      [0, 1].map((i) => peerKeyFromSeed(new TextEncoder().encode(`redial-${i}`))),
    );
    const peerId = peerIdOf(keys[1]!);
    const logger = createLogger({ level: 'error' });
    const startPeer = async () => {
      const net = await P2PNetwork.start({
        privateKey: keys[1]!,
        listenHost: '127.0.0.1',
        listenPort: base + 1,
        bootstrap: [],
        logger,
      });
      running.push(net);
      return net;
    };
    let peer = await startPeer();
    const node = await P2PNetwork.start({
      privateKey: keys[0]!,
      listenHost: '127.0.0.1',
      listenPort: base,
      bootstrap: [`/ip4/127.0.0.1/tcp/${base + 1}/p2p/${peerId}`],
      logger,
    });
    running.push(node);
    await waitFor('the node connected to its bootstrap peer', 10_000, async () =>
      node.connectedPeers().includes(peerId) ? true : null,
    );

    await peer.stop();
    await waitFor('the node to see the peer gone', 10_000, async () =>
      node.connectedPeers().includes(peerId) ? null : true,
    );
    peer = await startPeer();
    await waitFor('the node to dial the restarted peer again', 40_000, async () =>
      node.connectedPeers().includes(peerId) ? true : null,
    );
    // The dialer counts the connection as open a moment before the listener does (seen in CI).
    const restarted = peer;
    await waitFor('the restarted peer to count the connection too', 5_000, async () =>
      restarted.connectedPeers().includes(node.peerId) ? true : null,
    );
  });
});
