/**
 * The panel in a real browser against a devnet on Docker (panelSuite.ts): the same page, the same
 * operations through the runtime interface. In CI (CI=true) a missing engine is a failure;
 * elsewhere these tests are skipped with a line that says so.
 */
import { dockerEngineAnswers } from '../../src/harness/docker.js';
import { panelSuite } from './panelSuite.js';

const engine = await dockerEngineAnswers();
if (!engine.ok && process.env.CI === 'true')
  throw new Error(`CI=true but no Docker engine answers (${engine.reason}): .ci/run starts one`);
if (!engine.ok) console.log(`# panel tests on docker skipped: no Docker engine answers (${engine.reason})`);

panelSuite({
  runtime: 'docker',
  monitoring: true,
  skip: engine.ok ? false : `no Docker engine (${engine.reason})`,
});
