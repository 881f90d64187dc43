/**
 * Issue 28's upgrade rehearsal on the swarm runtime (upgrade.ts; e2e/README.md), on a
 * swarm of three engines on this machine made here and taken apart afterwards (as swarm.test.ts).
 * Without a Docker engine, or with this machine's engine in a swarm the tests did not make, it is
 * skipped with a line saying so, except in CI (CI=true), where that is a failure.
 */
import { after, test } from 'node:test';
import { dockerEngineAnswers, startTestSwarm, type TestSwarm } from '@chain-devnet/devnet';
import { upgradeRehearsal } from './upgrade.js';

let swarm: TestSwarm | null = null;
let skip: string | false = false;
const engine = await dockerEngineAnswers();
if (!engine.ok) skip = `no Docker engine answers (${engine.reason}): start one, or set DOCKER_HOST`;
else {
  const made = await startTestSwarm({ workers: 2, log: (l) => console.log(`# ${l}`) });
  if (made.ok) swarm = made.swarm;
  else skip = made.reason;
}
after(() => swarm?.teardown());

if (skip !== false && process.env.CI === 'true')
  test('an upgrade rehearsed on the swarm runtime', () => {
    throw new Error(`CI=true and the swarm runtime cannot be tested: ${skip}`);
  });
// An upgrade updates the node's service (its image, on the machine that holds its volume): 1 s
// blocks and 80 of them for two.
else upgradeRehearsal('swarm', { skip, planBlocks: 80, blockTime: '1s' });
