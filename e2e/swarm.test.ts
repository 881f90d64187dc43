/**
 * The end-to-end suite on the swarm runtime, on a swarm of three engines on this machine (this
 * machine's engine as manager, two engines in containers as workers: the devnet package's test
 * swarm, made here and taken apart afterwards, also when a scenario fails or the run is
 * interrupted). Without a Docker engine, or with this machine's engine in a swarm the tests did not
 * make, it is skipped with a line saying so, except in CI (CI=true), where that is a failure.
 */
import { after, test } from 'node:test';
import { dockerEngineAnswers, startTestSwarm, type TestSwarm } from '@chain-devnet/devnet';
import { e2eSuite } from './suite.js';

let swarm: TestSwarm | null = null;
let skip: string | false = false;
const engine = await dockerEngineAnswers();
if (!engine.ok) skip = `no Docker engine answers (${engine.reason}): start one, or set DOCKER_HOST`;
else if (process.env.E2E_DEVNET_HOME) skip = false;
else {
  const made = await startTestSwarm({ workers: 2, log: (l) => console.log(`# ${l}`) });
  if (made.ok) swarm = made.swarm;
  else skip = made.reason;
}
after(() => swarm?.teardown());

if (skip !== false && process.env.CI === 'true')
  test('e2e on the swarm runtime', () => {
    throw new Error(`CI=true and the swarm runtime cannot be tested: ${skip}`);
  });
// The test swarm's validators must be on all of its machines (a devnet of E2E_DEVNET_HOME is the user's).
else e2eSuite('swarm', swarm === null ? { skip } : { skip, machines: swarm.machines.length });
