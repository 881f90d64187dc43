/** The testkit against a real devnet on the docker runtime (testnetSuite.ts); skipped without an engine outside CI. */
import { dockerLeftovers, dockerSkip } from '../support/dockerEngine.js';
import { testnetSuite } from './testnetSuite.js';

testnetSuite({
  runtime: 'docker',
  skip: await dockerSkip('testkit docker tests'),
  leftovers: dockerLeftovers,
});
