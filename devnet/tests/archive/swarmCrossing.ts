/**
 * Save and restore across the swarm runtime, on the devnet of the swarm runtime suite
 * (swarmRuntime.test.ts: its test swarm of three engines, no other made): that devnet (four
 * validators over the three machines and a node added) saved while it runs, and going on; the
 * archive restored on processes with the saved state root at the saved height and the chain going
 * on; that devnet saved and restored on the swarm (each node's store put into its volume on the
 * machine it runs on), with both saved roots and the chain going on; taken down, nothing of it is
 * left on any machine (the node image it shares stays, held by the suite's devnet).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';
import type { SaveJson } from '../../src/json/jsonShapes.js';
import type { SuiteDevnet } from '../runtime/runtimeSuite.js';
import { Crossing } from './crossing.js';

export function swarmCrossing(
  s: SuiteDevnet,
  blockMs: number,
  leftovers: (home: string) => Promise<string[]>,
): void {
  let dir = '';
  const x = new Crossing(() => dir, blockMs);
  let first: { save: SaveJson; at: number };
  let firstRoot = '';
  let processHome = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-archive-swarm-'));
  });
  after(async () => {
    await x.downAll();
    await rm(dir, { recursive: true, force: true });
  });

  test('save on the swarm while it runs, restore on processes: the saved state root, and both go on', async () => {
    await x.adopt(s.home());
    first = await x.save(s.home(), 'swarm.tar.gz');
    assert.equal(Object.keys(first.save.heights).length, 5, JSON.stringify(first.save.heights));
    firstRoot = await x.oneRootAt(s.home(), first.at);
    // The swarm devnet runs on after its save.
    await x.goesOnFrom(s.home(), first.save, firstRoot, first.at);
    processHome = await x.upOn('from-swarm', ['--from', join(dir, 'swarm.tar.gz'), '--runtime', 'process'], {
      nodes: 5,
      monitoring: true,
    });
    await x.goesOnFrom(processHome, first.save, firstRoot, first.at);
  });

  test('save on processes, restore on the swarm: both saved state roots, and the chain goes on', async () => {
    const second = await x.save(processHome, 'process.tar.gz');
    assert.ok(second.at > first.at, `the second save (${second.at}) is past the first (${first.at})`);
    const root = await x.oneRootAt(processHome, second.at);
    await devnetCli(['down', '--home', processHome]);
    const swarmHome = await x.upOn(
      'to-swarm',
      ['--from', join(dir, 'process.tar.gz'), '--runtime', 'swarm'],
      { nodes: 5, monitoring: true, swarm: true },
    );
    for (const [name, r] of await x.rootAt(swarmHome, first.at))
      assert.equal(r, firstRoot, `${name}: the first save's root`);
    await x.goesOnFrom(swarmHome, second.save, root, second.at);
    const down = await devnetCli(['down', '--home', swarmHome]);
    assert.equal(down.code, 0, down.stderr);
    // The node image on the workers stays, held by the suite's devnet (its down removes it).
    assert.deepEqual(await leftovers(swarmHome), [], down.stdout);
  });
}
