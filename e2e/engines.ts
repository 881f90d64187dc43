/**
 * The preamble of every e2e file on the docker runtime, once: the engine must answer. Without one,
 * the file's tests are skipped with a line saying why, except in CI (CI=true), where that is a
 * failing test instead. The swarm files' preamble is the devnet package's onTestSwarm.
 */
import { test } from 'node:test';
import { dockerEngineAnswers, noDockerEngine } from '@chain-devnet/devnet/harness';

/** Declares a docker file's tests: `declare` gets the reason to skip (false: an engine answers). */
export async function onDockerEngine(title: string, declare: (skip: string | false) => void): Promise<void> {
  const engine = await dockerEngineAnswers();
  if (!engine.ok && process.env.CI === 'true')
    test(title, () => {
      throw new Error('CI=true and no Docker engine answers: the docker runtime cannot be tested');
    });
  else declare(engine.ok ? false : noDockerEngine(engine.reason));
}
