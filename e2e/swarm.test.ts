/**
 * The end-to-end suite on the swarm runtime, on the test swarm of three engines on this machine
 * (the devnet package's onTestSwarm: made here and taken apart afterwards; skipped saying why
 * without one, a failure in CI). With E2E_DEVNET_HOME, the user's devnet instead, and no swarm is made.
 */

import { onTestSwarm } from '@chain-devnet/devnet/harness';
import { e2eSuite } from './suite.js';

await onTestSwarm(
  'e2e on the swarm runtime',
  // The test swarm's validators must be on all of its machines (a devnet of E2E_DEVNET_HOME is the user's).
  (swarm, skip) => e2eSuite('swarm', swarm === null ? { skip } : { skip, machines: swarm.machines.length }),
  { usersDevnet: Boolean(process.env.E2E_DEVNET_HOME) },
);
