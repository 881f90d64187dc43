/**
 * Peers of another MAJOR p2p protocol version are refused with their reason (issue 28): the agent
 * version identify carries names the p2p version, a real libp2p peer speaking 2.0.0 is hung up on
 * and kept out, and one of another MINOR version (an older or newer build) is a peer like any.
 * Peers of another genesis are refused the same way (issue 39: sister devnets, one seed and so the
 * same keys, another genesis time); a peer naming no genesis (an older build) is left alone.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type LogFields, memoryLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { pause, waitFor } from '@chain-devnet/kit/wait';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../../src/p2p/peerKey.js';
import { P2P_VERSION, TOPIC_BLOCKS } from '../../../src/p2p/protocol.js';
import {
  agentVersion,
  handshakeRefusal,
  incompatibility,
  otherGenesis,
} from '../../../src/p2p/versionCheck.js';

describe('p2p protocol versions', () => {
  it('the topics and protocol ids carry the p2p version, 1.0.0', () => {
    assert.equal(P2P_VERSION, '1.0.0');
    assert.equal(TOPIC_BLOCKS, '/chain/blocks/1.0.0');
  });

  it('another major is incompatible, with the reason; another minor or patch is not', () => {
    assert.equal(agentVersion('0.2.0', '1.0.0'), 'chain-node/0.2.0 p2p/1.0.0');
    assert.match(
      incompatibility('chain-node/9.0.0 p2p/2.0.0', '1.0.0') ?? '',
      /2\.0\.0 has another major version than ours \(1\.0\.0\)/,
    );
    assert.equal(incompatibility('chain-node/0.2.0 p2p/1.3.7', '1.0.0'), null);
    assert.match(incompatibility('chain-node/0.2.0 p2p/one', '1.0.0') ?? '', /not MAJOR\.MINOR\.PATCH/);
    // A peer that names no version is left to the versioned protocol ids.
    assert.equal(incompatibility('js-libp2p/2.0.0', '1.0.0'), null);
    assert.equal(incompatibility(undefined, '1.0.0'), null);
  });

  it('another genesis is refused, with the reason; the same one, or none named, is not', () => {
    const ours = 'ab'.repeat(32);
    const sister = 'cd'.repeat(32);
    assert.equal(
      agentVersion('0.2.0', '1.0.0', ours),
      `chain-node/0.2.0 p2p/1.0.0 genesis/${'ab'.repeat(8)}`,
    );
    assert.equal(otherGenesis(agentVersion('0.2.0', '1.0.0', ours), ours), null);
    assert.match(
      otherGenesis(agentVersion('0.2.0', '1.0.0', sister), ours) ?? '',
      /^it is of genesis cdcdcdcdcdcdcdcd…, ours is abababababababab…: another chain/,
    );
    assert.match(otherGenesis('chain-node/0.2.0 p2p/1.0.0 genesis/XYZ', ours) ?? '', /not 16 lowercase hex/);
    // An older build names none: left alone (what it serves is still checked).
    assert.equal(otherGenesis('chain-node/0.1.0 p2p/1.0.0', ours), null);
    assert.deepEqual(
      handshakeRefusal(agentVersion('0.2.0', '1.0.0', sister), '1.0.0', ours)?.message,
      'peer refused: another genesis',
    );
    assert.equal(
      handshakeRefusal(agentVersion('0.2.0', '1.0.0', sister), '1.0.0', null),
      null,
      'a node with no genesis checks none',
    );
    assert.equal(
      handshakeRefusal(agentVersion('0.2.0', '2.0.0', ours), '1.0.0', ours)?.message,
      'peer refused: incompatible p2p protocol version',
    );
  });
});

describe('a real libp2p peer of another major p2p version', () => {
  const running: P2PNetwork[] = [];
  after(async () => {
    await Promise.all(running.map((n) => n.stop().catch(() => undefined)));
  });

  const start = async (
    seed: string,
    port: number,
    o: { p2pVersion?: string; bootstrap?: string[]; genesisHash?: string },
  ) => {
    const logger = memoryLogger();
    const net = await P2PNetwork.start({
      privateKey: await peerKeyFromSeed(new TextEncoder().encode(seed)),
      listenHost: '127.0.0.1',
      listenPort: port,
      bootstrap: o.bootstrap ?? [],
      logger,
      ...(o.p2pVersion === undefined ? {} : { p2pVersion: o.p2pVersion }),
      ...(o.genesisHash === undefined ? {} : { genesisHash: o.genesisHash }),
    });
    running.push(net);
    return { net, lines: logger.lines };
  };

  it('is refused with its reason and kept out; a peer of another minor version stays', async () => {
    const base = await freeBasePort((b) => [b, b + 1, b + 2]);
    const { net: node, lines } = await start('version-node', base, {});
    const bootstrap = [`/ip4/127.0.0.1/tcp/${base}/p2p/${node.peerId}`];
    const { net: newer } = await start('version-minor', base + 1, { p2pVersion: '1.1.0', bootstrap });
    const { net: alien } = await start('version-major', base + 2, { p2pVersion: '2.0.0', bootstrap });

    const reason = await waitFor(
      'the 2.0.0 peer refused',
      15_000,
      async () => node.incompatiblePeers().get(alien.peerId) ?? null,
    );
    assert.match(reason, /p2p protocol 2\.0\.0 has another major version than ours \(1\.0\.0\)/);
    const line: LogFields | undefined = lines.find(
      (r) => r.msg === 'peer refused: incompatible p2p protocol version',
    );
    assert.ok(line, 'the refusal is logged');
    assert.equal(line.peer, alien.peerId);
    assert.match(String(line.reason), /another major version/);
    await waitFor('the 2.0.0 peer disconnected', 15_000, async () =>
      node.connectedPeers().includes(alien.peerId) ? null : true,
    );
    await waitFor('the 1.1.0 peer connected', 15_000, async () =>
      node.connectedPeers().includes(newer.peerId) ? true : null,
    );
    // Its redial (bootstrap) is refused by the connection gater: it stays out.
    await pause(1500);
    assert.ok(!node.connectedPeers().includes(alien.peerId), 'the 2.0.0 peer is kept out');
    assert.ok(!node.incompatiblePeers().has(newer.peerId));
  });

  it('of another genesis (a sister devnet) is refused with its reason and kept out; one of the same genesis, or naming none, stays', async () => {
    const ours = '11'.repeat(32);
    const base = await freeBasePort((b) => [b, b + 1, b + 2, b + 3]);
    const { net: node, lines } = await start('genesis-node', base, { genesisHash: ours });
    const bootstrap = [`/ip4/127.0.0.1/tcp/${base}/p2p/${node.peerId}`];
    const { net: same } = await start('genesis-same', base + 1, { genesisHash: ours, bootstrap });
    const { net: unnamed } = await start('genesis-none', base + 2, { bootstrap });
    const { net: sister } = await start('genesis-sister', base + 3, {
      genesisHash: '22'.repeat(32),
      bootstrap,
    });

    const reason = await waitFor(
      'the sister refused',
      15_000,
      async () => node.incompatiblePeers().get(sister.peerId) ?? null,
    );
    assert.match(reason, /^it is of genesis 2222222222222222…, ours is 1111111111111111…: another chain/);
    const line = lines.find((r) => r.msg === 'peer refused: another genesis');
    assert.equal(line?.peer, sister.peerId, 'the refusal is logged');
    await waitFor('the sister disconnected', 15_000, async () =>
      node.connectedPeers().includes(sister.peerId) ? null : true,
    );
    for (const [what, peer] of [
      ['of the same genesis', same],
      ['naming no genesis', unnamed],
    ] as const)
      await waitFor(`the peer ${what} connected`, 15_000, async () =>
        node.connectedPeers().includes(peer.peerId) ? true : null,
      );
    await pause(1500);
    assert.ok(!node.connectedPeers().includes(sister.peerId), 'the sister is kept out');
    // The sister refuses the node too: each side names its own reason.
    await waitFor('the sister refused the node', 15_000, async () =>
      sister.incompatiblePeers().has(node.peerId) ? true : null,
    );
  });
});
