/**
 * The end-to-end suite on the docker runtime. Without a Docker engine it is skipped with a line
 * saying so, except in CI (CI=true), where a missing engine is a failure (engines.ts).
 */
import { onDockerEngine } from './engines.js';
import { e2eSuite } from './suite.js';

await onDockerEngine('e2e on the docker runtime', (skip) => e2eSuite('docker', { skip }));
