/**
 * `devnet save` on the docker runtime reads each node's volume into a folder of its own, never
 * into the node's home: a store copied there went back into the node's volume at its next first
 * start (`up` after `down --keep-data` copies the home in), over the newer store it had. Shown
 * with one validator: saved, run on, kept, resumed: it goes on past the height it had, and its
 * home holds no store.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { SaveJson, UpJson } from '../../src/json/jsonShapes.js';
import { dockerSkip } from '../support/dockerEngine.js';

const dir = await mkdtemp(join(tmpdir(), 'devnet-save-home-'));
const home = join(dir, 'home');
after(async () => {
  await devnetCli(['down', '--home', home]);
  await rm(dir, { recursive: true, force: true });
});

test('save leaves the homes as they were; a kept devnet resumes past its saved height', {
  skip: await dockerSkip('archive tests'),
}, async () => {
  const base = await freeDevnetBase(1, false);
  const flags = ['--base-port', String(base), '--no-ui', '--home', home];
  const up = await devnetJson<UpJson>([
    ...['up', '--runtime', 'docker', '--validators', '1', '--block-time', '300ms', '--no-monitoring'],
    ...flags,
  ]);
  const node = new RpcClient(up.nodes[0]!.rpc, 5_000);
  const height = async () => (await node.status()).height;
  await waitFor('height 3', 60_000, async () => (await height()) >= 3);
  const saved = await devnetJson<SaveJson>(['save', join(dir, 'a.tar.gz'), '--home', home]);
  const at = saved.heights['validator-0']!;
  assert.equal(
    existsSync(join(home, 'nodes', 'validator-0', 'data')),
    false,
    'no store copied into the home',
  );
  await waitFor(`height ${at + 10}`, 60_000, async () => (await height()) >= at + 10);
  assert.equal((await devnetCli(['down', '--keep-data', '--home', home])).code, 0);
  const again = await devnetJson<UpJson>(['up', ...flags]);
  const resumed = new RpcClient(again.nodes[0]!.rpc, 5_000);
  const h = (await resumed.status()).height;
  assert.ok(h >= at + 10, `resumed at height ${h}, not back near the saved ${at}`);
});
