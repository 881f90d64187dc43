/**
 * The preamble of every test file on the test swarm (swarm.ts), once: the swarm runtime's tests
 * (devnet/tests/runtime/swarm/swarmRuntime.test.ts, swarm/imageOwnership.test.ts) and the e2e files on swarm.
 * A swarm of this machine's engine (the manager) and engines in containers (the workers), made
 * here and taken apart after the file, also when a test fails or the run is interrupted
 * (startTestSwarm's own handlers); under the test runner, the one it made for all its swarm files
 * (sharedSwarm.ts), which the file leaves as it is. Without a Docker engine, or with this machine's
 * engine in a swarm the tests did not make, the file's tests are skipped with a line saying why,
 * except in CI (CI=true), where that is a failing test instead.
 */
import { after, test } from 'node:test';
import { dockerEngineAnswers } from './docker.js';
import { startTestSwarm, type TestSwarm } from './swarm.js';

/** Why a test file that needs a Docker engine cannot run. */
export const noDockerEngine = (reason: string): string =>
  `no Docker engine answers (${reason}): start one, or set DOCKER_HOST`;

export interface OnTestSwarmOptions {
  /** Engines in containers besides this machine's (default 2). */
  readonly workers?: number;
  /** Make no swarm: the tests run against a devnet the user made (E2E_DEVNET_HOME). */
  readonly usersDevnet?: boolean;
}

/**
 * Declares a swarm file's tests: `declare` gets the test swarm (null when none was made: the user's
 * devnet, or a reason to skip) and the reason to skip (false: none). Hooks the file registers
 * before this call run before the swarm is taken apart (node:test runs `after` hooks in order).
 */
export async function onTestSwarm(
  title: string,
  declare: (swarm: TestSwarm | null, skip: string | false) => void,
  o: OnTestSwarmOptions = {},
): Promise<void> {
  const log = (line: string) => console.log(`# ${line}`);
  let swarm: TestSwarm | null = null;
  let skip: string | false = false;
  const engine = await dockerEngineAnswers();
  if (!engine.ok) skip = noDockerEngine(engine.reason);
  else if (!o.usersDevnet) {
    const made = await startTestSwarm({ workers: o.workers ?? 2, log });
    if (made.ok) swarm = made.swarm;
    else skip = made.reason;
  }
  after(() => {
    const t0 = Date.now();
    swarm?.teardown();
    // The runner's swarm (setupSeconds 0) stays: the runner takes it apart after its last file.
    if (swarm !== null && swarm.setupSeconds > 0)
      log(`test swarm taken apart in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });

  if (skip !== false && process.env.CI === 'true')
    test(title, () => {
      throw new Error(`CI=true and the swarm runtime cannot be tested: ${skip}`);
    });
  else {
    if (skip !== false) log(`${title}: skipped: ${skip}`);
    declare(swarm, skip);
  }
}
