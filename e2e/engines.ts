/**
 * The preamble of every e2e file on the docker and swarm runtimes, once. Docker: the engine must
 * answer. Swarm: a swarm of three engines on this machine (this machine's engine as manager, two
 * engines in containers as workers: the devnet package's test swarm), made here and taken apart
 * after the file, also when a test fails or the run is interrupted. Without a Docker engine, or
 * (swarm) with this machine's engine in a swarm the tests did not make, the file's tests are
 * skipped with a line saying why, except in CI (CI=true), where that is a failing test instead.
 */
import { after, test } from 'node:test';
import { dockerEngineAnswers, startTestSwarm, type TestSwarm } from '@chain-devnet/devnet';

const noEngine = (reason: string) => `no Docker engine answers (${reason}): start one, or set DOCKER_HOST`;

/** Declares a docker file's tests: `declare` gets the reason to skip (false: an engine answers). */
export async function onDockerEngine(title: string, declare: (skip: string | false) => void): Promise<void> {
  const engine = await dockerEngineAnswers();
  if (!engine.ok && process.env.CI === 'true')
    test(title, () => {
      throw new Error('CI=true and no Docker engine answers: the docker runtime cannot be tested');
    });
  else declare(engine.ok ? false : noEngine(engine.reason));
}

export interface OnTestSwarmOptions {
  /** Make no swarm: the tests run against a devnet the user made (E2E_DEVNET_HOME). */
  readonly usersDevnet?: boolean;
}

/**
 * Declares a swarm file's tests: `declare` gets the test swarm (null when none was made: the user's
 * devnet, or a reason to skip) and the reason to skip (false: none).
 */
export async function onTestSwarm(
  title: string,
  declare: (swarm: TestSwarm | null, skip: string | false) => void,
  o: OnTestSwarmOptions = {},
): Promise<void> {
  let swarm: TestSwarm | null = null;
  let skip: string | false = false;
  const engine = await dockerEngineAnswers();
  if (!engine.ok) skip = noEngine(engine.reason);
  else if (!o.usersDevnet) {
    const made = await startTestSwarm({ workers: 2, log: (l) => console.log(`# ${l}`) });
    if (made.ok) swarm = made.swarm;
    else skip = made.reason;
  }
  after(() => swarm?.teardown());

  if (skip !== false && process.env.CI === 'true')
    test(title, () => {
      throw new Error(`CI=true and the swarm runtime cannot be tested: ${skip}`);
    });
  else declare(swarm, skip);
}
