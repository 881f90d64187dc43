/**
 * `devnet add --state-sync` on the process runtime (issue 27): a one-validator devnet with fast
 * blocks and a snapshot every 10 blocks runs far past its first snapshots; the node added with
 * --state-sync restores a snapshot (its log and its chain_state_sync_height metric say from which
 * height), holds no block below it (GET /block/1 answers 404) and follows the chain with the same
 * blocks as the validator. And the manifest's `state_sync: true` starts that node with --state-sync.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { AddJson, UpJson } from '../../src/json/jsonShapes.js';
import { buildNetworkSpec, nodeStartFlags } from '../../src/spec/networkSpec.js';

const INTERVAL = 10;

test("the manifest's state_sync starts that node with --state-sync, and only that one", () => {
  const spec = buildNetworkSpec({
    manifest: { validators: [{ name: 'a' }, { name: 'b', state_sync: true }] },
    genesisTime: 1_700_000_000,
  });
  assert.deepEqual(
    spec.nodes.map((n) => nodeStartFlags(n).includes('--state-sync')),
    [false, true],
  );
});

describe('devnet add --state-sync on the process runtime', { timeout: 300_000 }, () => {
  let dir = '';
  let home = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-statesync-'));
    home = join(dir, 'home');
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('a node added by state sync restores a snapshot, has no block 1 and follows the chain', async () => {
    const manifest = join(dir, 'devnet.json');
    await writeFile(
      manifest,
      JSON.stringify({
        validators: 1,
        block_time: '100ms',
        monitoring: false,
        ui: false,
        base_port: await freeDevnetBase(2, false),
        params: { snapshot_interval: INTERVAL },
      }),
    );
    const up = await devnetJson<UpJson>([
      'up',
      '--manifest',
      manifest,
      '--runtime',
      'process',
      '--home',
      home,
    ]);
    const validator = new RpcClient(up.nodes[0]!.rpc, 5000);
    await waitFor('the chain past 5 snapshot intervals', 60_000, async () =>
      (await validator.status()).height >= 5 * INTERVAL ? true : null,
    );
    const added = await devnetJson<AddJson>(['add', '--state-sync', '--home', home]);
    const client = new RpcClient(added.rpc, 5000);
    const metric = await waitFor('the restored height in the metrics', 15_000, async () => {
      const m = /^chain_state_sync_height (\d+)$/m.exec(await client.metrics());
      return m === null ? null : Number(m[1]);
    });
    assert.ok(metric >= INTERVAL && metric % INTERVAL === 0, `restored from ${metric}`);
    assert.equal((await fetch(`${added.rpc}/block/1`)).status, 404, 'no block 1 on the added node');
    const logs = await devnetCli(['logs', added.name, '--home', home]);
    assert.match(logs.stdout, /state sync restored/);
    const target = (await validator.status()).height + 3;
    await waitFor(`${added.name} at ${target}`, 60_000, async () =>
      (await client.status()).height >= target ? true : null,
    );
    assert.deepEqual(await client.block(target), await validator.block(target));
  });
});
