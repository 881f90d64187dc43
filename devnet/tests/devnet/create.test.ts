/**
 * A new devnet from what `up` built and checked (Devnet.create): it keeps the spec and the
 * runtime it is handed (before issue 40 it built the spec again and made a second runtime), writes
 * its home (devnet.json, the accounts' keys readable by their owner only, a fork's genesis), and
 * refuses a home that has a devnet before it writes anything. No node starts here.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DevnetError } from '../../src/base/errors.js';
import { Layout } from '../../src/base/layout.js';
import { Devnet } from '../../src/devnet/devnet.js';
import { ProcessRuntime } from '../../src/runtime/process/provider.js';
import { buildNetworkSpec, type SpecInput } from '../../src/spec/networkSpec.js';
import type { DevnetState } from '../../src/state/devnetState.js';

describe('Devnet.create: a new devnet from what up handed down', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-create-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const input: SpecInput = { manifest: { validators: 2, seed: 'create' }, genesisTime: 1_790_000_000 };

  it('keeps the spec and the runtime it is handed, and writes devnet.json and the accounts', async () => {
    const layout = new Layout(join(dir, 'new'));
    const spec = buildNetworkSpec(input);
    const runtime = new ProcessRuntime(layout);
    const d = await Devnet.create({ layout, input, spec, runtime });
    assert.equal(d.spec, spec, 'the spec up built, not another');
    assert.equal(d.runtime, runtime, 'the runtime up made, not another');
    const state = JSON.parse(await readFile(layout.stateFile, 'utf8')) as DevnetState;
    assert.equal(state.runtime, 'process');
    assert.deepEqual(state.input, input);
    assert.deepEqual(state.added, []);
    assert.equal(state.fork, undefined);
    const accounts = JSON.parse(await readFile(layout.accountsFile, 'utf8')) as { name: string }[];
    assert.deepEqual(
      accounts.map((a) => a.name),
      spec.accounts.map((a) => a.name),
    );
    assert.equal((await stat(layout.accountsFile)).mode & 0o777, 0o600);
  });

  it('refuses a home that has a devnet, writing nothing', async () => {
    const layout = new Layout(join(dir, 'taken'));
    const spec = buildNetworkSpec(input);
    await Devnet.create({ layout, input, spec, runtime: new ProcessRuntime(layout) });
    await writeFile(layout.accountsFile, 'kept\n');
    await assert.rejects(
      Devnet.create({ layout, input, spec, runtime: new ProcessRuntime(layout) }),
      (e: unknown) => e instanceof DevnetError && e.code === 'ALREADY_UP',
    );
    assert.equal(await readFile(layout.accountsFile, 'utf8'), 'kept\n');
  });
});
