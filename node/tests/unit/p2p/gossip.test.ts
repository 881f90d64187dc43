/**
 * Gossip between many peers on one IP address, as in a devnet on 127.0.0.1: 16 P2PNetwork
 * instances in this process, each bootstrapped with all the others. Gossipsub's default peer
 * score drops everything from peers when more than 10 share an IP (surplus² × -5 below the
 * graylist threshold of -80 past 14 peers), so before the node turned that penalty off a
 * 21-validator devnet never decided a block.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { pause, scaledMs, waitFor } from '@chain-devnet/kit/wait';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../../../src/p2p/peerKey.js';
import { TOPIC_VOTES } from '../../../src/p2p/protocol.js';

const N = 16;

describe(`gossip among ${N} peers on 127.0.0.1`, () => {
  const nets: P2PNetwork[] = [];
  const received: Set<string>[] = [];

  before(async () => {
    const base = await freeBasePort((b) => Array.from({ length: N }, (_, i) => b + i));
    const keys = await Promise.all(
      Array.from({ length: N }, (_x, i) => peerKeyFromSeed(new TextEncoder().encode(`gossip-${i}`))),
    );
    const addrs = keys.map((k, i) => `/ip4/127.0.0.1/tcp/${base + i}/p2p/${peerIdOf(k)}`);
    const logger = createLogger({ level: 'error' });
    for (let i = 0; i < N; i++) {
      const net = await P2PNetwork.start({
        privateKey: keys[i]!,
        listenHost: '127.0.0.1',
        listenPort: base + i,
        bootstrap: addrs.filter((_a, j) => j !== i),
        logger,
      });
      const seen = new Set<string>();
      net.subscribe(TOPIC_VOTES, (data) => {
        seen.add(new TextDecoder().decode(data));
        return 'accept';
      });
      nets.push(net);
      received.push(seen);
    }
  });
  after(async () => {
    await Promise.all(nets.map((n) => n.stop()));
  });

  it('every peer receives what any peer publishes, once most peers are connected to more than 14 others', async () => {
    // A wall-clock bound (no chain height measures a mesh forming), stretched by the machine's
    // slowness now: a loaded runner took longer than 30 s (issue 42).
    const peerCounts = () => nets.map((n) => n.connectedPeers().length).join(' ');
    await waitFor(
      'most peers connected to more than 14 others',
      scaledMs(30_000),
      async () => (nets.filter((n) => n.connectedPeers().length > 14).length >= N - 2 ? true : null),
      { seen: () => `peers of each: ${peerCounts()}` },
    );
    // Each publisher sends a new message every 200 ms until every peer has one of its messages
    // (the first ones may go out before a peer's subscription is known).
    for (const from of [0, N - 1]) {
      let k = 0;
      await waitFor(`a message of peer ${from} at every other peer`, scaledMs(15_000), async () => {
        await nets[from]!.publish(TOPIC_VOTES, new TextEncoder().encode(`from ${from} #${k++}`));
        await pause(200);
        const missing = received.filter(
          (seen, i) => i !== from && ![...seen].some((m) => m.startsWith(`from ${from} `)),
        );
        return missing.length === 0 ? true : null;
      });
    }
    for (const [i, n] of nets.entries())
      for (const [peer, score] of n.peerScores())
        assert.ok(score >= 0, `peer ${i} scores ${peer} ${score} (below 0: out of its mesh)`);
  });
});
