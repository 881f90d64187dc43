/**
 * Save and restore across runtimes, through the `devnet` command as a user runs it: a devnet on
 * processes (a transfer confirmed) saved while it runs; restored on Docker at another base port,
 * every node with the saved block's state root at the saved height and the chain going on (new
 * blocks, a transfer confirmed); saved again and restored on processes, the same checks. Every
 * devnet is taken down in the end, also when a check fails. The swarm's crossings run on the
 * test swarm of swarmRuntime.test.ts (swarmCrossing.ts).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';
import type { SaveJson } from '../../src/json/jsonShapes.js';
import { dockerSkip } from '../support/dockerEngine.js';
import { Crossing } from './crossing.js';

const BLOCK_MS = 400;

describe('devnet save and up --from, process to docker to process', {
  skip: await dockerSkip('archive tests'),
}, () => {
  let dir = '';
  const x = new Crossing(() => dir, BLOCK_MS);
  let firstSave: SaveJson;
  /** The state root each node of the saved devnet had at the lowest saved height. */
  let savedRoot = '';
  let savedAt = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-archive-runtimes-'));
  });
  after(async () => {
    await x.downAll();
    await rm(dir, { recursive: true, force: true });
  });

  let processHome = '';
  let dockerHome = '';

  test('a devnet on processes, saved while it runs, runs on', async () => {
    processHome = await x.upOn('process-1', [
      '--runtime',
      'process',
      '--validators',
      '4',
      '--block-time',
      `${BLOCK_MS}ms`,
      '--no-monitoring',
    ]);
    await x.transferConfirmed(processHome);
    const first = await x.save(processHome, 'first.tar.gz');
    firstSave = first.save;
    savedAt = first.at;
    assert.equal(Object.keys(firstSave.heights).length, 4);
    savedRoot = await x.oneRootAt(processHome, savedAt);
    await x.goesOnFrom(processHome, firstSave, savedRoot, savedAt);
    await devnetCli(['down', '--home', processHome]);
  });

  test('restored on Docker at another base port: the saved state root, and the chain goes on', async () => {
    dockerHome = await x.upOn('docker', ['--from', join(dir, 'first.tar.gz'), '--runtime', 'docker']);
    await x.goesOnFrom(dockerHome, firstSave, savedRoot, savedAt);
  });

  test('saved on Docker, restored on processes: both saved state roots, and the chain goes on', async () => {
    const { save: second, at } = await x.save(dockerHome, 'second.tar.gz');
    assert.ok(at > savedAt, `the second save (${at}) is past the first (${savedAt})`);
    const root = await x.oneRootAt(dockerHome, at);
    await devnetCli(['down', '--home', dockerHome]);
    const back = await x.upOn('process-2', ['--from', join(dir, 'second.tar.gz'), '--runtime', 'process']);
    for (const [name, r] of await x.rootAt(back, savedAt))
      assert.equal(r, savedRoot, `${name}: the first save's root`);
    await x.goesOnFrom(back, second, root, at);
  });
});
