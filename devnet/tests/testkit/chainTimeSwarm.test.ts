/**
 * Time under the tester's hand on the swarm runtime (chainTimeSuite.ts says what is shown), on the
 * test swarm (the runner's, or one made here and taken apart after; a failure in CI without one).
 */
import { onTestSwarm } from '../../src/harness/index.js';
import { chainTimeSuite } from './chainTimeSuite.js';

await onTestSwarm('chain time on the swarm runtime', (_swarm, skip) => chainTimeSuite('swarm', skip));
