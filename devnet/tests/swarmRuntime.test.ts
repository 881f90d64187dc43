/**
 * The swarm runtime on a real swarm of three engines on this machine: this machine's engine as
 * the manager and two engines in containers as workers (the test swarm of harness/swarm.ts, made
 * here and taken apart afterwards, also when a check fails). The same checks as the process and
 * docker runtimes, with the validators spread over all three machines, plus nothing left on any
 * of them after down. In CI (CI=true) a missing engine or a swarm the tests did not make is a
 * failure; elsewhere the tests are skipped with a line that says why.
 */
import { after } from 'node:test';
import type Docker from 'dockerode';
import { dockerEngineAnswers } from '../src/harness/docker.js';
import { startTestSwarm, type TestSwarm } from '../src/harness/swarm.js';
import { Layout } from '../src/layout.js';
import { docker } from '../src/runtime/docker/engine.js';
import { SwarmMachines } from '../src/runtime/swarm/swarmEngines.js';
import { runtimeSuite } from './runtimeSuite.js';

const WORKERS = 2;
const ci = process.env.CI === 'true';
let swarm: TestSwarm | null = null;
let skip: string | false = false;

const engine = await dockerEngineAnswers();
if (!engine.ok) skip = `no Docker engine answers (${engine.reason}); start dockerd to run them`;
else {
  const made = await startTestSwarm({ workers: WORKERS, log: (l) => console.log(`# ${l}`) });
  if (made.ok) swarm = made.swarm;
  else skip = made.reason;
}
if (skip !== false && ci) throw new Error(`CI=true but the swarm runtime cannot be tested: ${skip}`);
if (skip !== false) console.log(`# swarm runtime tests skipped: ${skip}`);
else console.log(`# test swarm of ${WORKERS + 1} engines made in ${swarm!.setupSeconds.toFixed(1)} s`);

after(() => {
  const t0 = Date.now();
  swarm?.teardown();
  if (swarm !== null) console.log(`# test swarm taken apart in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

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
    // The node image was loaded into the workers' engines (no registry): down removes it there.
    if (!m.local)
      for (const i of await e.listImages({ filters: { reference: ['chain-devnet/chain-node'] } }))
        found.push(`image ${i.RepoTags?.join(',')} on ${m.name}`);
  }
  return [...new Set(found)].sort();
}

runtimeSuite({ runtime: 'swarm', skip, machines: WORKERS + 1, leftovers });
