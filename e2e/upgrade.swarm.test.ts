/**
 * Issue 28's upgrade rehearsal on the swarm runtime (upgrade.ts; e2e/README.md), on the test
 * swarm of three engines on this machine (the devnet package's onTestSwarm: made here and taken
 * apart afterwards; skipped saying why without one, a failure in CI).
 */
import { onTestSwarm } from '@chain-devnet/devnet';
import { upgradeRehearsal } from './upgrade.js';

// An upgrade updates the node's service (its image, on the machine that holds its volume): 1 s
// blocks and 80 of them for two.
await onTestSwarm('an upgrade rehearsed on the swarm runtime', (_swarm, skip) =>
  upgradeRehearsal('swarm', { skip, planBlocks: 80, blockTime: '1s' }),
);
