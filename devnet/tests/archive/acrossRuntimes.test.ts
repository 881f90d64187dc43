/**
 * Save and restore across runtimes, through the `devnet` command as a user runs it: a devnet on
 * processes (a transfer confirmed) saved while it runs; restored on Docker at another base port,
 * every node with the saved block's state root at the saved height and the chain going on (new
 * blocks, a transfer confirmed); saved again and restored on processes, the same checks. Every
 * devnet is taken down in the end, also when a check fails.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RpcClient } from '@chain-devnet/node/client';
import { waitFor } from '@chain-devnet/node/harness';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { SaveJson, TxJson, UpJson } from '../../src/jsonShapes.js';
import { dockerSkip } from '../dockerEngine.js';

const BLOCK_MS = 400;
const bound = (blocks: number) => 30_000 + blocks * BLOCK_MS * 4;

describe('devnet save and up --from, process to docker to process', {
  skip: await dockerSkip('archive tests'),
}, () => {
  let dir = '';
  const homes: string[] = [];
  /** Each devnet's nodes by name, as `up` printed them. */
  const rpcs = new Map<string, Map<string, string>>();
  let firstSave: SaveJson;
  /** The state root each node of the saved devnet had at the lowest saved height. */
  let savedRoot = '';
  let savedAt = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-archive-runtimes-'));
  });
  after(async () => {
    for (const h of homes) await devnetCli(['down', '--home', h]);
    await rm(dir, { recursive: true, force: true });
  });

  const rootAt = async (home: string, h: number) =>
    Promise.all(
      [...rpcs.get(home)!].map(
        async ([name, rpc]) => [name, (await new RpcClient(rpc, 5_000).block(h)).header.state_root] as const,
      ),
    );

  async function upOn(name: string, args: string[]): Promise<string> {
    const home = join(dir, name);
    homes.push(home);
    const base = await freeDevnetBase(4, false);
    const r = await devnetJson<UpJson>([
      'up',
      ...args,
      '--base-port',
      String(base),
      '--no-ui',
      '--home',
      home,
    ]);
    rpcs.set(home, new Map(r.nodes.map((n) => [n.name, n.rpc])));
    assert.deepEqual(
      r.nodes.map((n) => n.rpc),
      [0, 1, 2, 3].map((i) => `http://127.0.0.1:${base + i}`),
    );
    return home;
  }

  async function transferConfirmed(home: string): Promise<void> {
    const send = 'tx send --from account-0 --to account-1 --amount 1coin'.split(' ');
    const r = await devnetJson<TxJson>([...send, '--home', home]);
    assert.equal(r.receipt?.status, 'confirmed');
  }

  /** Every node of the restored devnet: the saved state root at the saved height, then new blocks. */
  async function goesOnFrom(home: string, save: SaveJson, root: string, at: number): Promise<void> {
    for (const [name, r] of await rootAt(home, at))
      assert.equal(r, root, `${name}: the state root at height ${at}`);
    const top = Math.max(...Object.values(save.heights).map((h) => h ?? 0));
    await waitFor(`every node past height ${top + 3}`, bound(10), async () => {
      const hs = await Promise.all(
        [...rpcs.get(home)!.values()].map(async (rpc) => (await new RpcClient(rpc, 2_000).status()).height),
      );
      return hs.every((h) => h > top + 3);
    });
    await transferConfirmed(home);
  }

  let processHome = '';
  let dockerHome = '';

  test('a devnet on processes, saved while it runs, runs on', async () => {
    processHome = await upOn('process-1', [
      '--runtime',
      'process',
      '--validators',
      '4',
      '--block-time',
      `${BLOCK_MS}ms`,
      '--no-monitoring',
    ]);
    await transferConfirmed(processHome);
    firstSave = await devnetJson<SaveJson>(['save', join(dir, 'first.tar.gz'), '--home', processHome]);
    assert.equal(Object.keys(firstSave.heights).length, 4);
    savedAt = Math.min(...Object.values(firstSave.heights).map((h) => h ?? 0));
    assert.ok(savedAt >= 2, `saved at height ${savedAt}`);
    const roots = await rootAt(processHome, savedAt);
    assert.equal(new Set(roots.map(([, r]) => r)).size, 1, 'one state root at the saved height');
    savedRoot = roots[0]![1];
    await goesOnFrom(processHome, firstSave, savedRoot, savedAt);
    await devnetCli(['down', '--home', processHome]);
  });

  test('restored on Docker at another base port: the saved state root, and the chain goes on', async () => {
    dockerHome = await upOn('docker', ['--from', join(dir, 'first.tar.gz'), '--runtime', 'docker']);
    await goesOnFrom(dockerHome, firstSave, savedRoot, savedAt);
  });

  test('saved on Docker, restored on processes: both saved state roots, and the chain goes on', async () => {
    const second = await devnetJson<SaveJson>(['save', join(dir, 'second.tar.gz'), '--home', dockerHome]);
    const at = Math.min(...Object.values(second.heights).map((h) => h ?? 0));
    assert.ok(at > savedAt, `the second save (${at}) is past the first (${savedAt})`);
    const [[, root]] = (await rootAt(dockerHome, at)) as [[string, string]];
    await devnetCli(['down', '--home', dockerHome]);
    const back = await upOn('process-2', ['--from', join(dir, 'second.tar.gz'), '--runtime', 'process']);
    for (const [name, r] of await rootAt(back, savedAt))
      assert.equal(r, savedRoot, `${name}: the first save's root`);
    await goesOnFrom(back, second, root, at);
  });
});
