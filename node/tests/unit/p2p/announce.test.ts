/**
 * What a node tells its peers to dial: its announce addresses when it has them, in place of
 * the addresses it listens on (a container on two networks must not hand out the one its peers
 * cannot reach).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../../src/p2p/peerKey.js';

describe('P2PNetwork announce addresses', () => {
  const running: P2PNetwork[] = [];
  after(async () => {
    await Promise.all(running.map((n) => n.stop().catch(() => undefined)));
  });
  const logger = createLogger({ level: 'error' });
  const start = async (seed: string, port: number, announce: string[] = []) => {
    const net = await P2PNetwork.start({
      privateKey: await peerKeyFromSeed(new TextEncoder().encode(seed)),
      listenHost: '127.0.0.1',
      listenPort: port,
      announce,
      bootstrap: [],
      logger,
    });
    running.push(net);
    return net;
  };

  it('without them, the listen address is what it hands out', async () => {
    const base = await freeBasePort((b) => [b]);
    const net = await start('announce-none', base);
    assert.deepEqual(net.multiaddrs(), [`/ip4/127.0.0.1/tcp/${base}/p2p/${net.peerId}`]);
  });

  it('with them, only those', async () => {
    const base = await freeBasePort((b) => [b]);
    const net = await start('announce-name', base, [`/dns4/validator-0/tcp/9000`]);
    assert.deepEqual(net.multiaddrs(), [`/dns4/validator-0/tcp/9000/p2p/${net.peerId}`]);
  });

  it('an address that is no multiaddr, or names a peer id, is refused by name', async () => {
    const base = await freeBasePort((b) => [b]);
    await assert.rejects(
      start('announce-bad', base, ['validator-0:9000']),
      /announce address validator-0:9000/,
    );
    await assert.rejects(
      start('announce-bad', base, [
        `/dns4/validator-0/tcp/9000/p2p/${(await start('announce-id', base)).peerId}`,
      ]),
      /names a peer id/,
    );
  });
});
