/**
 * Peers of another MAJOR p2p protocol version are refused with their reason (issue 28): the agent
 * version identify carries names the p2p version, a real libp2p peer speaking 2.0.0 is hung up on
 * and kept out, and one of another MINOR version (an older or newer build) is a peer like any.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { freeBasePort, pause, waitFor } from '../../../src/harness/index.js';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../../src/p2p/peerKey.js';
import { P2P_VERSION, TOPIC_BLOCKS } from '../../../src/p2p/protocol.js';
import { agentVersion, incompatibility } from '../../../src/p2p/versionCheck.js';
import { type LogFields, memoryLogger } from '../../../src/util/logger.js';

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
});

describe('a real libp2p peer of another major p2p version', () => {
  const running: P2PNetwork[] = [];
  after(async () => {
    await Promise.all(running.map((n) => n.stop().catch(() => undefined)));
  });

  const start = async (seed: string, port: number, o: { p2pVersion?: string; bootstrap?: string[] }) => {
    const logger = memoryLogger();
    const net = await P2PNetwork.start({
      privateKey: await peerKeyFromSeed(new TextEncoder().encode(seed)),
      listenHost: '127.0.0.1',
      listenPort: port,
      bootstrap: o.bootstrap ?? [],
      logger,
      ...(o.p2pVersion === undefined ? {} : { p2pVersion: o.p2pVersion }),
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
});
