/**
 * The preamble of every e2e file on the swarm runtime, once: a swarm of three engines on this
 * machine (this machine's engine as manager, two engines in containers as workers: the devnet
 * package's test swarm), made here and taken apart after the file, also when a test fails or the
 * run is interrupted. Without a Docker engine, or with this machine's engine in a swarm the tests
 * did not make, the file's tests are skipped with a line saying why, except in CI (CI=true), where
 * that is a failure.
 */
import { after, test } from 'node:test';
import { dockerEngineAnswers, startTestSwarm, type TestSwarm } from '@chain-devnet/devnet';

export interface OnTestSwarmOptions {
  /** Make no swarm: the tests run against a devnet the user made (E2E_DEVNET_HOME). */
  readonly usersDevnet?: boolean;
}

/**
 * Declares the file's tests: `declare` gets the test swarm (null when none was made: the user's
 * devnet, or a reason to skip) and the reason to skip (false: none). In CI a reason to skip is a
 * failing test named `title` instead.
 */
export async function onTestSwarm(
  title: string,
  declare: (swarm: TestSwarm | null, skip: string | false) => void,
  o: OnTestSwarmOptions = {},
): Promise<void> {
  let swarm: TestSwarm | null = null;
  let skip: string | false = false;
  const engine = await dockerEngineAnswers();
  if (!engine.ok) skip = `no Docker engine answers (${engine.reason}): start one, or set DOCKER_HOST`;
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
