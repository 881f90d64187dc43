/**
 * A swarm test run killed with its devnet up (killedRun.ts: its own swarm of this machine's engine
 * and one engine in a container, a devnet of 2 validators, SIGKILLed so that none of its clean-up
 * runs): the next start of a test swarm takes all of it apart, and when that swarm is taken apart
 * this machine's engine is as before both (in no swarm, no network, container or volume left).
 * It needs this machine's engine in no swarm: the test runner runs it as a swarm-alone file
 * (.ci/tests/testGroups.mjs), never while its shared swarm for the other swarm files is there.
 * In CI (CI=true) a missing engine or a swarm the tests did not make is a failure; elsewhere the
 * test is skipped with a line that says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dockerEngineAnswers } from '../../../src/harness/docker.js';
import { startTestSwarm } from '../../../src/harness/swarm.js';
import { engineState, killARun } from './killedRun.js';

const engine = await dockerEngineAnswers();
const skip = engine.ok ? false : `no Docker engine answers (${engine.reason}); start dockerd to run it`;
if (skip !== false && process.env.CI === 'true') throw new Error(`CI=true but no swarm can be made: ${skip}`);

test("a killed run's swarm and devnet: the next run's start takes them apart", { skip }, async () => {
  const t0 = Date.now();
  const killed = await killARun();
  assert.ok(killed.ok, `the killed run: ${killed.ok ? '' : killed.reason}`);
  console.log(`# a run killed with its devnet up, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // What it left (else the checks below would prove nothing): its swarm, worker, node and volume here.
  assert.equal(killed.left.swarm, 'active');
  assert.equal(killed.left.engines.length, 1);
  assert.ok(killed.left.containers.length > 0 && killed.left.volumes.length > 0, JSON.stringify(killed.left));
  const startLines: string[] = [];
  const made = await startTestSwarm({
    workers: 1,
    shared: false,
    log: (l) => {
      startLines.push(l);
      console.log(`# ${l}`);
    },
  });
  assert.ok(made.ok, made.ok ? '' : made.reason);
  try {
    assert.ok(
      startLines.some((l) => l.endsWith('(left by an earlier run)')),
      `the start says what it took apart: ${startLines.join(' | ')}`,
    );
    // Only this run's worker engine remains; nothing of the killed devnet.
    const afterStart = await engineState(killed.id);
    assert.deepEqual(
      { engines: afterStart.engines.length, containers: afterStart.containers, volumes: afterStart.volumes },
      { engines: 1, containers: [], volumes: [] },
    );
  } finally {
    made.swarm.teardown();
  }
  // This machine's engine as it was before the killed run and this one.
  assert.deepEqual(await engineState(killed.id), killed.before);
});
