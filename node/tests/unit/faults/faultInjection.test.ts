/**
 * <home>/blocked_peers.json is fault injection: a node honours it only when started with
 * --fault-injection (as devnets and the cluster tests start theirs). Here a node lists its one
 * bootstrap peer in that file: with the flag it refuses the peer, without it the two connect
 * and stay connected, and the node says once that the file is ignored. The allow-list form
 * ({"allow": [...]}, what the devnet's disconnect and partition write) refuses a stranger that
 * dials in, which a list of the devnet's own peers never did.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLogger, memoryLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { defaultConfig } from '../../../src/main/config.js';
import { type RunningNode, startNode } from '../../../src/main/node.js';
import { encodeJson } from '../../../src/p2p/messages.js';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../../../src/p2p/peerKey.js';
import { SYNC_PROTOCOL } from '../../../src/p2p/protocol.js';
import { networkPorts } from '../../../src/testnet/ports.js';
import { cleanup, initHome } from '../../support/processes.js';

after(cleanup);

/**
 * A node with one bootstrap peer, started with or without the flag, whose blocked_peers.json is
 * `file(peer id)` (by default the first form: a list that names its peer).
 */
async function nodeBlockingItsPeer(
  faultInjection: boolean,
  file: (peerId: string) => unknown = (peerId) => [peerId],
) {
  const base = await freeBasePort((p) => networkPorts(p, 2));
  const key = await peerKeyFromSeed(new TextEncoder().encode(`fault-injection-${faultInjection}`));
  const peer = await P2PNetwork.start({
    privateKey: key,
    listenHost: '127.0.0.1',
    listenPort: base + 1,
    bootstrap: [],
    logger: createLogger({ level: 'error' }),
  });
  const home = await initHome();
  await writeFile(join(home, 'blocked_peers.json'), JSON.stringify(file(peerIdOf(key))));
  const logger = memoryLogger();
  let node: RunningNode;
  try {
    node = await startNode(
      {
        ...defaultConfig(home),
        port: 0,
        p2pPort: base,
        bootstrap: [`/ip4/127.0.0.1/tcp/${base + 1}/p2p/${peerIdOf(key)}`],
        keyPath: null,
        faultInjection,
      },
      logger,
    );
  } catch (e) {
    await peer.stop();
    throw e;
  }
  const connected = () => node.network!.connectedPeers().includes(peer.peerId);
  const logged = (text: string) => logger.lines.filter((l) => String(l.msg).includes(text)).length;
  const stop = async () => {
    await node.stop();
    await peer.stop();
  };
  return {
    node,
    peer,
    home,
    address: `/ip4/127.0.0.1/tcp/${base}/p2p/${node.network!.peerId}`,
    connected,
    logged,
    stop,
  };
}

/** Samples `check` for `ms` (a few polls of the blocked-peers file): true if it held throughout. */
async function holdsFor(ms: number, check: () => boolean): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!check()) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('blocked_peers.json is fault injection', { timeout: 60_000 }, () => {
  it('with --fault-injection the node refuses the peers the file names', async () => {
    const n = await nodeBlockingItsPeer(true);
    try {
      await waitFor('the file to be read', 10_000, async () =>
        n.logged('blocked peers set') > 0 ? true : null,
      );
      await waitFor('the peer to be cut off', 10_000, async () => (n.connected() ? null : true));
      assert.ok(await holdsFor(2_000, () => !n.connected()), 'the peer stays refused');
      assert.equal(n.logged('fault injection is off'), 0);
    } finally {
      await n.stop();
    }
  });

  it('{"allow": [ids]} refuses every peer but those (a stranger that dials in too), and {"allow": []} every peer', async () => {
    const n = await nodeBlockingItsPeer(true, (peerId) => ({ allow: [peerId] }));
    // A stranger that knows the node's address and dials it (a rogue peer serving block sync).
    const stranger = await P2PNetwork.start({
      privateKey: await peerKeyFromSeed(new TextEncoder().encode('fault-injection-stranger')),
      listenHost: '127.0.0.1',
      listenPort: 0,
      bootstrap: [n.address],
      logger: createLogger({ level: 'error' }),
    });
    const status = encodeJson({ type: 'status' });
    try {
      await waitFor('the file to be read', 10_000, async () =>
        n.logged('blocked peers set') > 0 ? true : null,
      );
      await waitFor('the allowed peer to connect', 10_000, async () => (n.connected() ? true : null));
      const nodeId = n.node.network!.peerId;
      await assert.rejects(
        stranger.request(nodeId, SYNC_PROTOCOL, status, 5_000),
        'a stranger cannot reach the node (its block sync above all)',
      );
      assert.ok(!n.node.network!.connectedPeers().includes(stranger.peerId));
      assert.ok(
        (await n.peer.request(nodeId, SYNC_PROTOCOL, status, 5_000)).length > 0,
        'the allowed peer can',
      );

      await writeFile(join(n.home, 'blocked_peers.json'), JSON.stringify({ allow: [] }));
      await waitFor('the allowed peer to be cut off too', 10_000, async () => (n.connected() ? null : true));
      await assert.rejects(n.peer.request(nodeId, SYNC_PROTOCOL, status, 5_000), 'nobody reaches the node');
    } finally {
      await stranger.stop();
      await n.stop();
    }
  });

  it('without it the file is ignored: the node connects, stays connected, and says so once', async () => {
    const n = await nodeBlockingItsPeer(false);
    try {
      await waitFor('the node to connect to its peer', 10_000, async () => (n.connected() ? true : null));
      assert.ok(await holdsFor(2_000, n.connected), 'still connected after several polls of the file');
      assert.equal(n.logged('blocked peers set'), 0, 'the file was never applied');
      assert.equal(n.logged('blocked_peers.json is present but fault injection is off'), 1);
    } finally {
      await n.stop();
    }
  });
});
