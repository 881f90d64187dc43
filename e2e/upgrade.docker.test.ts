/**
 * Issue 28's upgrade rehearsal on the docker runtime (upgrade.ts; e2e/README.md). Without
 * a Docker engine it is skipped with a line saying so, except in CI (CI=true), where that fails
 * (engines.ts).
 */
import { onDockerEngine } from './engines.js';
import { upgradeRehearsal } from './upgrade.js';

// Each upgrade makes the node's container again from the other image: 40 blocks for two (11 to 20 used here, the most on a machine at load 20).
await onDockerEngine('an upgrade rehearsed on the docker runtime', (skip) =>
  upgradeRehearsal('docker', { skip, planBlocks: 40, blockTime: '500ms' }),
);
