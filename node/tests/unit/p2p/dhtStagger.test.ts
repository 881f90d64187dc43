/**
 * kad-dht refreshes its routing table every 5 minutes from its start, with no option to change
 * that; the network sets each node's own period on the refresher (staggerTableRefresh). This
 * checks it against the kad-dht the node runs, so that an upgrade that moves the field fails here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identify } from '@libp2p/identify';
import { kadDHT } from '@libp2p/kad-dht';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { createLibp2pNode, staggerTableRefresh } from '../../../src/p2p/libp2pNode.js';
import { peerKeyFromSeed } from '../../../src/p2p/peerKey.js';

describe('DHT table refresh', () => {
  it("is set on kad-dht's refresher, to 3.75–6.25 minutes, different from node to node", async () => {
    const periods: number[] = [];
    for (let i = 0; i < 5; i++) {
      const node = await createLibp2p({
        start: false,
        transports: [tcp()],
        services: { identify: identify(), ping: ping(), dht: kadDHT({ clientMode: false }) },
      });
      const dht = node.services.dht as unknown as { routingTableRefresh: { refreshInterval: number } };
      assert.equal(dht.routingTableRefresh.refreshInterval, 5 * 60_000, "kad-dht's default");
      assert.equal(staggerTableRefresh(node.services.dht), true);
      periods.push(dht.routingTableRefresh.refreshInterval);
    }
    for (const p of periods) assert.ok(p >= 225_000 && p <= 375_000, `period ${p} ms`);
    assert.ok(new Set(periods).size > 1, `every node got ${periods[0]} ms`);
    assert.equal(staggerTableRefresh({}), false);
  });

  it("leaves the first self-lookup to 30–60 s after start, different from node to node (after a devnet's first blocks)", async () => {
    const firsts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const node = await createLibp2pNode(
        {
          privateKey: await peerKeyFromSeed(new TextEncoder().encode(`dht-schedule-${i}`)),
          listenHost: '127.0.0.1',
          listenPort: 0,
          bootstrap: [],
          agentVersion: 'test',
        },
        [],
        async () => false,
      );
      // kad-dht's QuerySelf waits initialInterval before its first lookup (its start's timer).
      const querySelf = (node.services.dht as unknown as { querySelf: { initialInterval: number } })
        .querySelf;
      firsts.push(querySelf.initialInterval);
    }
    for (const f of firsts) assert.ok(f >= 30_000 && f <= 60_000, `first self-lookup after ${f} ms`);
    assert.ok(new Set(firsts).size > 1, `every node after ${firsts[0]} ms`);
  });
});
