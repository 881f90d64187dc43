/**
 * A late joiner by state sync among real chain-node processes (issue 27): three validators with a
 * snapshot every 20 blocks run a chain far past it; then `chain-node start` with node.json's
 * `state_sync: true` joins, bootstrapped to them and to a rogue that passes on their snapshots
 * with a byte flipped in every chunk. The joiner restores a verified snapshot (never the rogue's),
 * holds no block below it, follows the chain, and once the chain halts answers GET /status,
 * /validators and balances as the validators do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freeBasePort } from '@chain-devnet/kit/ports';
import type { Program } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '../../src/client/rpcClient.js';
import type { P2PNetwork } from '../../src/p2p/network.js';
import { Cluster } from '../support/cluster.js';
import { serveCorruptingProxy } from '../support/rogueSnapshots.js';
import { addressOf, startNetworkConnectedTo } from '../support/syncPeers.js';

const BLOCK_MS = 100;
const INTERVAL = 20;
/** Far past the snapshot interval. */
const JOIN_AT = 200;

describe('a late joiner by state sync among real nodes', { timeout: 300_000 }, () => {
  let c: Cluster;
  let rogue: P2PNetwork | null = null;
  let joiner: Program | null = null;
  let client: RpcClient;
  const chunkRequests: number[] = [];

  before(async () => {
    c = await Cluster.create(3, BLOCK_MS, { snapshot_interval: INTERVAL, epoch_length: 1000 });
    c.startAll();
    await c.waitForHeight(JOIN_AT, [0], 120_000);
  });
  after(async () => {
    await joiner?.stop('SIGTERM', 3000);
    await rogue?.stop();
    await c.stopAll();
  });

  it('restores a verified snapshot, not the rogue corrupt one, and has no block below it', async () => {
    const base = await freeBasePort((b) => [b, b + 1, b + 2]);
    rogue = await startNetworkConnectedTo(
      { name: 'snapshot-rogue', port: base + 2, bootstrap: [c.nodes[0]!.multiaddr] },
      c.nodes[0]!.peerId,
    );
    await serveCorruptingProxy(rogue, c.nodes[0]!.peerId, chunkRequests);
    joiner = await c.startJoiner({
      port: base,
      p2pPort: base + 1,
      bootstrap: [addressOf(rogue, base + 2), ...c.nodes.map((n) => n.multiaddr)],
    });
    client = new RpcClient(`http://127.0.0.1:${base}`, 5000);
    const j = joiner;
    const restored = await waitFor('the joiner restored a snapshot', 60_000, async () => {
      const line = j.lines().find((l) => l.includes('"state sync restored"'));
      return line === undefined ? null : (JSON.parse(line) as { height: number; peer: string });
    });
    assert.ok(restored.height >= JOIN_AT - INTERVAL, `restored from ${restored.height}`);
    assert.equal(restored.height % INTERVAL, 0);
    assert.notEqual(restored.peer, rogue.peerId, 'never the rogue');
    if (chunkRequests.length > 0)
      assert.ok(
        j.lines().some((l) => l.includes('"state sync peer failed"') && l.includes(rogue!.peerId)),
        'the rogue that was asked for chunks is scored down',
      );
    // The log line comes before the chain is opened (503 until then).
    await waitFor('the joiner serving its chain', 15_000, async () =>
      (await client.status().catch(() => null)) === null ? null : true,
    );
    const res = await fetch(`http://127.0.0.1:${base}/block/1`);
    assert.equal(res.status, 404, 'no block 1 on the joiner');
    await waitFor('the metric of the restored height', 15_000, async () =>
      (await client.metrics()).includes(`chain_state_sync_height ${restored.height}`) ? true : null,
    );
  });

  it('follows the chain and, once it halts, answers as the validators do', async () => {
    const target = (await c.height(0)) + 10;
    await waitFor(`the joiner at ${target}`, 60_000, async () =>
      (await client.status().catch(() => ({ height: 0 }))).height >= target ? true : null,
    );
    assert.deepEqual(await client.block(target), await c.nodes[0]!.client.block(target));
    // Two of three validators stopped: the chain halts, and every node settles on one height.
    await c.stop(1);
    await c.stop(2);
    const head = await waitFor('node 0 and the joiner at the same height', 30_000, async () => {
      const [a, b] = [await c.height(0), (await client.status()).height];
      return a === b ? a : null;
    });
    // The chain's fields; the mempool and the disk are each node's own (the validators run with
    // --fault-injection, so their disk shows its faults; the joiner's shows none).
    const statusOf = async (cl: RpcClient) => {
      const { mempool_size: _m, disk: _d, ...rest } = await cl.status();
      return rest;
    };
    assert.deepEqual(await statusOf(client), await statusOf(c.nodes[0]!.client));
    assert.deepEqual(await client.block(head), await c.nodes[0]!.client.block(head));
    assert.deepEqual(await client.validators(), await c.nodes[0]!.client.validators());
    for (const n of c.nodes)
      assert.deepEqual(
        await client.balance(n.accountAddress),
        await c.nodes[0]!.client.balance(n.accountAddress),
      );
  });
});
