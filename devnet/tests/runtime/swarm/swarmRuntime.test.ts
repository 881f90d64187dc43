/**
 * The swarm runtime on a real swarm of three engines on this machine: this machine's engine as
 * the manager and two engines in containers as workers (the test swarm of harness/swarm.ts, made
 * here and taken apart afterwards, also when a check fails: harness/onTestSwarm.ts). The same
 * checks as the process and docker runtimes (the whole devnet stopped for longer than an epoch),
 * with the validators spread over all three machines, plus nothing left on any of them after
 * down, and save and restore across the swarm and processes (archive/swarmCrossing.ts); then
 * `up --market` (market/marketSuite.ts) on the same swarm. Under the test runner the swarm is the
 * one it made for all its swarm files (harness/sharedSwarm.ts); a killed run's clean-up is
 * swarm/killedRun.test.ts.
 * In CI (CI=true) a missing engine or a swarm the tests did not make is a failure; elsewhere the
 * tests are skipped with a line that says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { NETWORK_PARAMS } from '@chain-devnet/node/chain';
import type Docker from 'dockerode';
import { Layout } from '../../../src/base/layout.js';
import { onTestSwarm } from '../../../src/harness/onTestSwarm.js';
import type { StatusJson } from '../../../src/json/jsonShapes.js';
import { docker } from '../../../src/runtime/docker/engine.js';
import { devnetLabels, devnetName } from '../../../src/runtime/docker/labels.js';
import { holdersOf } from '../../../src/runtime/swarm/imageHolders.js';
import { SwarmMachines } from '../../../src/runtime/swarm/swarmEngines.js';
import { swarmCrossing } from '../../archive/swarmCrossing.js';
import { marketSuite } from '../../market/marketSuite.js';
import { BLOCK_MS, runtimeSuite, type SuiteDevnet } from '../runtimeSuite.js';

const WORKERS = 2;

/** What of one devnet is on the swarm: on the manager, and on every machine's engine. */
async function leftovers(home: string): Promise<string[]> {
  const id = new Layout(home).id;
  const filters = { label: [`io.chain-devnet.devnet=${id}`] };
  const d = docker();
  const found: string[] = [];
  for (const s of (await d.listServices({ filters })) as Docker.Service[])
    found.push(`service ${s.Spec?.Name}`);
  for (const c of (await d.listConfigs({ filters })) as { Spec?: { Name?: string } }[])
    found.push(`config ${c.Spec?.Name}`);
  for (const c of (await d.listSecrets({ filters })) as { Spec?: { Name?: string } }[])
    found.push(`secret ${c.Spec?.Name}`);
  for (const n of await d.listNetworks({ filters })) found.push(`network ${n.Name}`);
  for (const n of await d.listNetworks({ filters: { name: [`devnet-${id}`] } }))
    found.push(`network ${n.Name}`);
  const machines = await SwarmMachines.load({});
  for (const m of machines.all) {
    const e = machines.engine(m, 'look for leftovers');
    for (const c of await e.listContainers({ all: true, filters }))
      found.push(`container ${c.Names[0]} on ${m.name}`);
    for (const v of (await e.listVolumes({ filters })).Volumes ?? [])
      found.push(`volume ${v.Name} on ${m.name}`);
    // The node image was loaded into the workers' engines (no registry): down lets go of it there
    // (its holder tag), and the last devnet that holds it removes it. None is left that no devnet holds.
    // (Every image listed: a reference filter lists only the tags it matches.)
    if (!m.local)
      for (const i of await e.listImages()) {
        const tags = i.RepoTags ?? [];
        const holders = holdersOf(tags);
        if (holders.includes(id) || (holders.length === 0 && tags.some((t) => t.startsWith('chain-devnet/'))))
          found.push(`image ${tags.join(',')} on ${m.name}`);
      }
  }
  return [...new Set(found)].sort();
}

/**
 * A start the swarm cannot schedule: another task holds the node's RPC port (host mode) on its
 * machine, so the scheduler keeps the node's new task pending with its reason and never fails it.
 * The start must fail with that reason well inside the command's timeout (it waited 180 s before,
 * the test's own timeout ending it first), leave the node stopped, and start once the port is free.
 */
function unschedulableStart(s: SuiteDevnet): void {
  test('start while another task holds the RPC port on its machine: an error that says why, in time', async () => {
    const layout = new Layout(s.home());
    const d = docker();
    const node = (await d.getService(devnetName(layout, 'validator-2')).inspect()) as Docker.Service;
    const task = node.Spec!.TaskTemplate as Docker.ContainerTaskSpec;
    assert.equal((await s.cli('stop', 'validator-2')).code, 0);
    const holder = devnetName(layout, 'port-holder');
    await d.createService({
      Name: holder,
      // The devnet's labels: its down removes the holder too, whatever happens here.
      Labels: devnetLabels(layout),
      TaskTemplate: {
        ContainerSpec: {
          // On its container too: down removes the devnet's containers on every machine, then the image.
          Labels: devnetLabels(layout),
          Image: task.ContainerSpec!.Image!,
          // Ends on SIGTERM: as PID 1 it would ignore it, and its removal below would wait out the
          // swarm's 10 s stop grace before the port is free for the node's start.
          Command: [
            'node',
            '-e',
            "process.on('SIGTERM', () => process.exit(0)); setTimeout(() => {}, 600000)",
          ],
        },
        Placement: task.Placement!,
        RestartPolicy: { Condition: 'none' },
      },
      EndpointSpec: {
        Ports: [{ Protocol: 'tcp', TargetPort: 8000, PublishedPort: s.base() + 2, PublishMode: 'host' }],
      },
    } as Docker.CreateServiceOptions);
    try {
      await waitFor('the port holder to run', 60_000, async () =>
        ((await d.listTasks({ filters: { service: [holder] } })) as { Status?: { State?: string } }[]).some(
          (t) => t.Status?.State === 'running',
        ),
      );
      const t0 = Date.now();
      const r = await s.cli('start', 'validator-2');
      const took = Date.now() - t0;
      assert.equal(r.code, 1, r.stderr);
      // At once (not after the 30 s a holder on its way out gets), naming the holder; then the
      // scheduler's own words, e.g. "no suitable node (scheduling constraints not satisfied on 2
      // nodes; host-mode port already in use on 1 node)".
      const port = s.base() + 2;
      assert.match(
        r.stderr,
        new RegExp(
          `validator-2 cannot be scheduled while port ${port} on \\S+ is held by service ${holder}, which is meant to run on: pending: no suitable node \\(.*host-mode port already in use on 1 node\\)`,
        ),
      );
      assert.ok(took < 90_000, `the error came after ${took} ms`);
      // The start was undone: no task left waiting to take the node up when the port frees.
      const st = JSON.parse((await s.cli('status', '--json')).stdout) as StatusJson;
      assert.equal(st.nodes.find((n) => n.name === 'validator-2')!.state, 'stopped');
      const live = (
        (await d.listTasks({ filters: { service: [devnetName(layout, 'validator-2')] } })) as {
          DesiredState?: string;
        }[]
      ).filter((t) => t.DesiredState === 'running');
      assert.deepEqual(live, [], 'no task of validator-2 is meant to run');
    } finally {
      await d.getService(holder).remove();
    }
    assert.equal((await s.cli('start', 'validator-2')).code, 0);
    const target = (await s.heightOf('validator-0')) + 1;
    await waitFor(
      'validator-2 to catch up',
      s.bound(10),
      async () => (await s.heightOf('validator-2')) >= target,
    );
  });
}

await onTestSwarm(
  'the swarm runtime',
  (_swarm, skip) => {
    runtimeSuite({
      runtime: 'swarm',
      skip,
      machines: WORKERS + 1,
      leftovers,
      // Longer than an epoch (100 blocks): stopped that long, nobody is jailed and no epoch ends (the
      // validators' epoch and jail records are compared across the stop), as the testkit's pause
      // tests show on process and docker.
      pauseMs: NETWORK_PARAMS.devnet.epochLength * BLOCK_MS + 2_000,
      more: (s) => {
        unschedulableStart(s);
        // Save and restore across runtimes, on this swarm (archive/swarmCrossing.ts).
        swarmCrossing(s, BLOCK_MS, leftovers);
      },
    });
    // devnet up --market on the same swarm: the market and its worker as swarm services.
    marketSuite({ runtime: 'swarm', skip, leftovers });
  },
  { workers: WORKERS },
);
