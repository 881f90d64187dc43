/**
 * A swarm test run that was killed leaves its swarm behind; the next run takes it apart
 * (harness/swarm.ts) and leaves this machine's engine as it was before either: in no swarm, no
 * docker_gwbridge (unless it was there before), no worker engine, nothing of the killed run's
 * devnet (its services, and on this machine its node's container, volume and network). The killed
 * run is killedRunChild.js, SIGKILLed with its devnet up. In CI (CI=true) a missing engine or a
 * swarm the tests did not make is a failure; elsewhere the test is skipped with a line saying why.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProgram, startProgram } from '@chain-devnet/node/harness';
import { dockerEngineAnswers } from '../../src/harness/docker.js';
import { startTestSwarm, TEST_SWARM_LABEL } from '../../src/harness/swarm.js';
import { Layout } from '../../src/layout.js';

const CHILD = fileURLToPath(new URL('./killedRunChild.js', import.meta.url));

async function dockerLines(args: readonly string[]): Promise<string[]> {
  const r = await runProgram({ command: 'docker', args });
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** This machine's engine, as far as a test swarm and the devnet `id` touch it. */
async function engineState(id: string) {
  const label = `label=io.chain-devnet.devnet=${id}`;
  return {
    swarm: (await dockerLines(['info', '--format', '{{.Swarm.LocalNodeState}}'])).join(''),
    gwbridge:
      (await runProgram({ command: 'docker', args: ['network', 'inspect', 'docker_gwbridge'] })).code === 0,
    engines: await dockerLines(['ps', '-aq', '--filter', `label=${TEST_SWARM_LABEL}=engine`]),
    containers: await dockerLines(['ps', '-a', '--filter', label, '--format', '{{.Names}}']),
    volumes: await dockerLines(['volume', 'ls', '-q', '--filter', label]),
    networks: await dockerLines(['network', 'ls', '--filter', `name=devnet-${id}`, '--format', '{{.Name}}']),
  };
}

const engine = await dockerEngineAnswers();
const noEngine = engine.ok ? false : `no Docker engine answers (${engine.reason}); start dockerd to run it`;
if (noEngine !== false && process.env.CI === 'true') throw new Error(`CI=true but ${noEngine}`);

test("the next run takes apart what a killed run left, and this machine's engine is as before", {
  skip: noEngine,
  timeout: 600_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'swarm-killed-'));
  const home = join(dir, 'home');
  const id = new Layout(home).id;
  const before = await engineState(id);
  const t0 = Date.now();
  const child = startProgram({ args: [CHILD, home], name: 'killed run' });
  let takenApart = false;
  try {
    const m = await child.waitForLine(/^(READY|NOT MADE .*)$/, 420_000, 'READY');
    if (m[1] !== 'READY') {
      if (process.env.CI === 'true') throw new Error(`CI=true but the test swarm was not made: ${m[1]}`);
      return t.skip(m[1]);
    }
    child.signal('SIGKILL');
    await child.exited;
    // What the killed run left: without it, the check below would prove nothing.
    const left = await engineState(id);
    assert.equal(left.swarm, 'active');
    assert.equal(left.engines.length, 1, 'its worker engine');
    assert.ok(
      left.containers.length > 0 && left.volumes.length > 0,
      `its node on this machine: ${JSON.stringify(left)}`,
    );

    const lines: string[] = [];
    const made = await startTestSwarm({ workers: 1, log: (l) => lines.push(l) });
    assert.ok(made.ok, made.ok ? '' : made.reason);
    made.swarm.teardown();
    takenApart = true;
    assert.ok(
      lines.some((l) => l.endsWith('(left by an earlier run)')),
      `the next run says what it took apart: ${lines.join(' | ')}`,
    );
    assert.deepEqual(await engineState(id), before);
    console.log(`# killed run, next run and its teardown: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await child.stop('SIGKILL');
    // A check failed midway: what the killed run left must not stay for other tests to meet.
    if (!takenApart) {
      const again = await startTestSwarm({ workers: 1 });
      if (again.ok) again.swarm.teardown();
    }
    await rm(dir, { recursive: true, force: true });
  }
});
