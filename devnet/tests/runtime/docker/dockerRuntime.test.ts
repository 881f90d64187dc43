/**
 * The docker runtime against a real engine: the same checks as the process runtime, plus no
 * container, network or volume left after down. In CI (CI=true) a missing engine is a failure;
 * elsewhere these tests are skipped with a line that says so.
 */
import { dockerLeftovers, dockerSkip } from '../../support/dockerEngine.js';
import { runtimeSuite } from '../runtimeSuite.js';

runtimeSuite({
  runtime: 'docker',
  skip: await dockerSkip('docker runtime tests'),
  leftovers: dockerLeftovers,
});
