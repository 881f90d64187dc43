/**
 * Issue 28's upgrade rehearsal on the docker runtime (upgrade.ts; e2e/README.md). Without
 * a Docker engine it is skipped with a line saying so, except in CI (CI=true), where that fails.
 */
import { test } from 'node:test';
import { dockerEngineAnswers } from '@chain-devnet/devnet';
import { upgradeRehearsal } from './upgrade.js';

const engine = await dockerEngineAnswers();
if (!engine.ok && process.env.CI === 'true')
  test('an upgrade rehearsed on the docker runtime', () => {
    throw new Error('CI=true and no Docker engine answers: the docker runtime cannot be tested');
  });
// Each upgrade makes the node's container again from the other image: 40 blocks for two (11 to 20 used here, the most on a machine at load 20).
else
  upgradeRehearsal('docker', {
    skip: engine.ok ? false : `no Docker engine answers (${engine.reason}): start one, or set DOCKER_HOST`,
    planBlocks: 40,
    blockTime: '500ms',
  });
