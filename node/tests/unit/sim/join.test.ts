/**
 * A node added to a running simulation (SimCluster.add, as `devnet add`): by block sync it replays
 * every block from genesis; by state sync (as --state-sync) it restores a verified snapshot of its
 * peers with the node's own StateSync and fetches only the blocks after it; either way it follows
 * the chain, agrees with every node, and is in the fingerprint. Its key is a devnet's added
 * node's (the next index under the seed), so the same seed adds the same node.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimCluster } from '../../../src/sim/simCluster.js';
import { keyFromSeed } from '../../../src/testnet/index.js';

async function withCluster<T>(seed: string, body: (c: SimCluster) => Promise<T>): Promise<T> {
  const cluster = await SimCluster.open({
    seed,
    validators: 4,
    blockTimeMs: 500,
    params: { snapshot_interval: 10, epoch_length: 1000 },
  });
  try {
    return await body(cluster);
  } finally {
    await cluster.close();
  }
}

describe('a node added to the simulation', () => {
  it('by state sync: restores a snapshot of its peers, takes only the blocks after it, follows and agrees', () =>
    withCluster('join-state', async (c) => {
      assert.equal(await c.runUntil(() => c.allAt(25), 60_000), true);
      const node = await c.add({ stateSync: true });
      assert.equal(node.name, 'validator-4');
      const top = c.head;
      assert.equal(await c.runUntil(() => c.allAt(top + 3), 60_000), true, 'it follows the chain');
      const log = node.logLines.join('\n');
      assert.match(log, /"msg":"state sync restored".*"height":20/);
      const headers = await node.headers();
      assert.equal(headers[0]!.height, 20, 'it holds nothing below the snapshot');
      const chains = await c.chains();
      assert.deepEqual(chains.forks, []);
      assert.equal(chains.hashes['validator-4']![0], '', 'no hash below its snapshot');
      assert.equal(chains.hashes['validator-4']![25], chains.hashes['validator-0']![25]);
      assert.equal(
        c.validatorAddress('validator-4'),
        keyFromSeed('sim:join-state', 'validator-4').validator_address,
      );
      assert.deepEqual(c.nodeFailures(), []);
    }));

  it('by block sync: replays every block from genesis; a name taken is refused', () =>
    withCluster('join-blocks', async (c) => {
      assert.equal(await c.runUntil(() => c.allAt(12), 60_000), true);
      await assert.rejects(c.add({ name: 'validator-1' }), /validator-1 cannot be added: that name is taken/);
      const node = await c.add({ name: 'full-node' });
      const top = c.head;
      assert.equal(await c.runUntil(() => c.allAt(top + 3), 60_000), true);
      assert.equal((await node.headers())[0]!.height, 1);
      assert.doesNotMatch(node.logLines.join('\n'), /state sync/);
      const chains = await c.chains();
      assert.deepEqual(chains.forks, []);
      assert.deepEqual(
        chains.hashes['full-node']!.slice(0, top),
        chains.hashes['validator-0']!.slice(0, top),
      );
      assert.deepEqual(c.nodeFailures(), []);
    }));

  it('crashed while it state-syncs: down once its state sync returns, and up again when started', () =>
    withCluster('join-crash', async (c) => {
      assert.equal(await c.runUntil(() => c.allAt(25), 60_000), true);
      const { node, started } = c.join({ stateSync: true });
      let settled = false;
      void started.then(() => {
        settled = true;
      });
      await node.crash(); // during its state sync: its start ends it down
      assert.equal(await c.runUntil(() => settled, 120_000), true, 'its start ended');
      assert.equal(node.up, false, 'down: it was crashed while it started');
      await c.runTo(c.elapsedMs + 3000);
      assert.equal(node.up, false);
      await node.start();
      const top = c.head;
      assert.equal(await c.runUntil(() => c.allAt(top + 3), 60_000), true, 'started again, it follows');
      assert.deepEqual((await c.chains()).forks, []);
      assert.deepEqual(c.nodeFailures(), []);
    }));
});
