/**
 * Block sync against a stub network backed by another node's store: a node that is behind
 * fetches from the first peer that says it is ahead, without waiting for a peer that never
 * answers (on a loaded machine the slowest of 20 peers took up to the 3 s status timeout, and a
 * node that lost a height's messages waited that long to fetch it).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { blockToJson } from '../../../../src/chain/index.js';
import { createMetrics } from '../../../../src/metrics/metrics.js';
import { commitToJson, decodeSyncRequest, encodeJson } from '../../../../src/p2p/messages.js';
import type { P2PNetwork } from '../../../../src/p2p/network.js';
import { BlockSync } from '../../../../src/sync/block/blockSync.js';
import { type Harness, makeHarness } from '../../../support/harness.js';

describe('BlockSync', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.close()));
  });

  it('fetches from the first peer ahead while another never answers its status request', {
    timeout: 10_000,
  }, async () => {
    const ahead = await makeHarness();
    const behind = await makeHarness();
    harnesses.push(ahead, behind);
    await ahead.produce();
    const asked: string[] = [];
    const network = {
      connectedPeers: () => ['silent', 'ahead'],
      request: async (peer: string, _protocol: string, bytes: Uint8Array) => {
        asked.push(peer);
        if (peer === 'silent') return new Promise<Uint8Array>(() => undefined);
        const req = decodeSyncRequest(bytes);
        if (typeof req === 'string') throw new Error(req);
        if (req.type === 'status') return encodeJson({ height: ahead.service.state.height });
        const blocks = await ahead.service.blocksWithCommits(req.from, req.to);
        return encodeJson({
          blocks: blocks.map((b) => ({ block: blockToJson(b.block), commit: commitToJson(b.commit) })),
        });
      },
    };
    const sync = new BlockSync(
      behind.service,
      network as unknown as P2PNetwork,
      createMetrics(),
      memoryLogger(),
    );
    assert.equal(
      await sync.catchUp(),
      1,
      'one lost height: no second status round (which would wait for the silent peer)',
    );
    assert.equal(behind.service.state.height, 1);
    assert.equal(behind.service.state.lastBlockHash, ahead.service.state.lastBlockHash);
    assert.ok(asked.includes('silent'), 'both peers were asked');
  });

  it('asks only as many peers as it is told, picked among the connected ones', async () => {
    const h = await makeHarness();
    harnesses.push(h);
    const peers = Array.from({ length: 20 }, (_x, i) => `peer-${i}`);
    const asked = new Set<string>();
    const network = {
      connectedPeers: () => peers,
      request: async (peer: string) => {
        asked.add(peer);
        return encodeJson({ height: 0 });
      },
    };
    const sync = new BlockSync(h.service, network as unknown as P2PNetwork, createMetrics(), memoryLogger());
    assert.equal(await sync.catchUp(4), 0);
    assert.equal(asked.size, 4);
    for (const p of asked) assert.ok(peers.includes(p));
    asked.clear();
    assert.equal(await sync.catchUp(), 0);
    assert.equal(asked.size, 20, 'all of them by default');
  });
});
