/**
 * Issue 28's upgrade scenario file among the examples, run by `devnet test` on the process
 * runtime: devnet/scenarios/upgrade-plan.yaml (the validators on an older commit, a plan to 1.1.0
 * signed on the running chain, two validators on this checkout before its height, the two old ones
 * halting at it, moved one by one, the chain going on, every invariant). The same rehearsal through
 * the testkit, with what it reads of every node, is upgrade.ts on every runtime.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { devnetCli } from '@chain-devnet/devnet';
import { E2E_LOGS_DIR } from './manifest.js';

const SCENARIO = fileURLToPath(new URL('../../devnet/scenarios/upgrade-plan.yaml', import.meta.url));

test('devnet/scenarios/upgrade-plan.yaml run by devnet test on the process runtime', {
  timeout: 600_000,
}, async () => {
  await mkdir(E2E_LOGS_DIR, { recursive: true });
  const r = await devnetCli(
    [
      'test',
      SCENARIO,
      '--runtime',
      'process',
      '--junit',
      join(E2E_LOGS_DIR, 'upgrade-plan-process.xml'),
      '--logs-dir',
      E2E_LOGS_DIR,
    ],
    { timeoutMs: 580_000 },
  );
  for (const line of r.stdout.trimEnd().split('\n')) console.log(`# [upgrade-plan] ${line}`);
  assert.equal(r.code, 0, `devnet test exited ${r.code}: ${r.stderr}`);
  assert.match(r.stdout, /✔ steps\[1\] a plan to 1\.1\.0 at height 40, signed by the validators/);
  assert.match(r.stdout, /✔ steps\[5\] the old ones halt at the plan's height/);
  assert.match(r.stdout, /✔ steps\[7\] and wait there, half the power being down/);
  assert.match(r.stdout, /✔ steps\[10\] the chain goes on past the height/);
  assert.match(
    r.stdout,
    /invariant: the same header at every height on every node: heights 1\.\.\d+ on validator-0, validator-1, validator-2, validator-3/,
  );
  assert.match(r.stdout, /✔ invariants/);
});
