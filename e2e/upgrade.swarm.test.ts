/**
 * Issue 28's upgrade rehearsal on the swarm runtime (upgrade.ts; e2e/README.md), on the test
 * swarm of three engines on this machine (the devnet package's onTestSwarm: made here and taken
 * apart afterwards; skipped saying why without one, a failure in CI).
 */
import { onTestSwarm } from '@chain-devnet/devnet/harness';
import { upgradeRehearsal } from './upgrade.js';

// An upgrade updates the node's service (its image, on the machine that holds its volume): 1 s
// blocks and 40 of them for two (14 to 15 used in quiet CI runs, 14 to 22 at load 35-120: from the
// plan to the second back in consensus; the rehearsal fails saying "raise planBlocks" when the
// chain reaches the height first).
await onTestSwarm('an upgrade rehearsed on the swarm runtime', (_swarm, skip) =>
  upgradeRehearsal('swarm', { skip, planBlocks: 40, blockTime: '1s' }),
);
