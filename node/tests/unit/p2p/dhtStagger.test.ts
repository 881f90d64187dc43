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
import { staggerTableRefresh } from '../../../src/p2p/libp2pNode.js';

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
});
