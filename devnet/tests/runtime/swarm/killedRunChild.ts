/**
 * A swarm test run that is killed mid-way, for killedRun.test.ts: it makes a test swarm (this
 * machine's engine and one engine in a container), brings a devnet of 2 validators up on it (one
 * on each machine), prints READY and waits to be SIGKILLed, so that none of its clean-up runs.
 * Usage: node killedRunChild.js HOME. When the swarm cannot be made it prints NOT MADE and why.
 */
import { devnetJson } from '../../../src/harness/cli.js';
import { freeDevnetBase } from '../../../src/harness/ports.js';
import { startTestSwarm } from '../../../src/harness/swarm.js';

const home = process.argv[2];
if (home === undefined) throw new Error('usage: killedRunChild.js HOME');
// A swarm of its own, also under the test runner (whose swarm files share one).
const made = await startTestSwarm({ workers: 1, shared: false, log: (l) => console.log(l) });
if (!made.ok) {
  console.log(`NOT MADE ${made.reason}`);
  process.exit(0);
}
const base = await freeDevnetBase(2, false);
const args = [
  'up',
  '--runtime',
  'swarm',
  '--validators',
  '2',
  '--no-monitoring',
  '--base-port',
  String(base),
];
await devnetJson([...args, '--home', home], { timeoutMs: 300_000 });
console.log('READY');
// Until the test kills it: a run killed with its devnet up.
setInterval(() => undefined, 60_000);
