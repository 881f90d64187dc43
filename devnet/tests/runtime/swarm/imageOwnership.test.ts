/**
 * Who removes the node image that the tool loaded into a swarm worker (no registry), on the test
 * swarm of three engines (harness/swarm.ts): devnet A loads it, devnet B comes up while A runs and
 * finds it there; A goes down first, then B: nothing of the tool's is left on any worker (a
 * fresh-clone CI run found the image left for good: A left it for B's services, and B had not
 * loaded it). And an image a worker had before any devnet (the user's: loaded there by hand) is
 * used and never removed.
 * In CI (CI=true) a missing engine or a swarm the tests did not make is a failure; elsewhere the
 * tests are skipped with a line that says why.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import type Docker from 'dockerode';
import { Layout } from '../../../src/base/layout.js';
import { devnetCli, devnetJson } from '../../../src/harness/cli.js';
import { onTestSwarm } from '../../../src/harness/onTestSwarm.js';
import { freeDevnetBase } from '../../../src/harness/ports.js';
import { docker } from '../../../src/runtime/docker/engine.js';
import { devnetName } from '../../../src/runtime/docker/labels.js';
import { ensureNodeImage } from '../../../src/runtime/docker/nodeImage.js';
import { SwarmMachines } from '../../../src/runtime/swarm/swarmEngines.js';

const dir = await mkdtemp(join(tmpdir(), 'swarm-images-'));
const homes = { a: join(dir, 'a'), b: join(dir, 'b') };
// Before onTestSwarm's own: the devnets go down before a swarm made here is taken apart.
after(async () => {
  for (const home of Object.values(homes)) await devnetCli(['down', '--home', home]);
  await rm(dir, { recursive: true, force: true });
});

/** A devnet of one validator on the swarm; the node image its services run. */
async function up(home: string): Promise<string> {
  const base = await freeDevnetBase(2);
  await devnetJson(
    [
      'up',
      '--runtime',
      'swarm',
      '--validators',
      '1',
      '--no-monitoring',
      '--base-port',
      String(base),
      '--home',
      home,
    ],
    { timeoutMs: 300_000 },
  );
  const s = (await docker()
    .getService(devnetName(new Layout(home), 'validator-0'))
    .inspect()) as Docker.Service;
  return (s.Spec!.TaskTemplate as Docker.ContainerTaskSpec).ContainerSpec!.Image!.split('@')[0]!;
}

async function down(home: string): Promise<string> {
  const r = await devnetCli(['down', '--home', home]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** Every tag of the tool's (chain-devnet/…) on each worker's engine, by worker name. */
async function toolImagesOnWorkers(): Promise<Record<string, string[]>> {
  const machines = await SwarmMachines.load({});
  const found: Record<string, string[]> = {};
  for (const m of machines.all.filter((x) => !x.local)) {
    const images = await machines.engine(m, 'list its images').listImages();
    found[m.name] = images
      .flatMap((i) => i.RepoTags ?? [])
      .filter((t) => t.startsWith('chain-devnet/'))
      .sort();
  }
  return found;
}

const nothing = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, []]));

const title =
  "two devnets share the node image loaded into a worker; the first down first, the second removes it; the user's own copy stays";
await onTestSwarm(title, (swarm, skip) =>
  test(title, { skip }, async () => {
    const machines = await SwarmMachines.load({});
    const [loadedInto, usersOwn] = swarm!.machines.slice(1) as [string, string];
    assert.deepEqual(
      await toolImagesOnWorkers(),
      nothing([loadedInto, usersOwn]),
      'no image of the tool before',
    );
    // The node image of this checkout (as up builds it); the user loads it into one worker by hand.
    const tag = await ensureNodeImage(() => undefined);
    const save = await runProgram({
      command: 'sh',
      args: ['-c', `docker save ${tag} | docker -H ${machines.find(usersOwn)!.engine} load`],
      timeoutMs: 180_000,
    });
    assert.equal(save.code, 0, save.stderr);
    try {
      // A loads it into the other worker; B, up while A runs, finds it there.
      assert.equal(await up(homes.a), tag);
      assert.equal(await up(homes.b), tag, 'both devnets run one node image');
      const held = await toolImagesOnWorkers();
      assert.ok(held[loadedInto]!.includes(tag), `${loadedInto} has ${tag}: ${held[loadedInto]}`);
      // A goes first: B still runs the image, so it stays.
      const aDown = await down(homes.a);
      const during = await toolImagesOnWorkers();
      assert.ok(during[loadedInto]!.includes(tag), `${loadedInto} keeps ${tag} for B: ${aDown}`);
      // B, the last, removes what the tool loaded, though B did not load it; the user's copy stays,
      // with no tag of the tool's beside it.
      const bDown = await down(homes.b);
      assert.deepEqual(await toolImagesOnWorkers(), { [loadedInto]: [], [usersOwn]: [tag] }, bDown);
    } finally {
      await machines
        .engine(machines.find(usersOwn)!, 'remove the test image')
        .getImage(tag)
        .remove()
        .catch(() => undefined);
    }
  }),
);
