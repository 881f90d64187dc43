/**
 * Issue 28's upgrade scenario files among the examples, run by `devnet test` on the process
 * runtime: devnet/scenarios/upgrade-plan.yaml (the validators on an older commit, a plan to 1.1.0
 * signed on the running chain, two validators on this checkout before its height, the two old ones
 * halting at it, moved one by one, the chain going on, every invariant) and
 * devnet/scenarios/rolling-upgrade.yaml (two moved to this checkout under load, then every node
 * one after another). The same rehearsal through the testkit, with what it reads of every node, is
 * upgrade.ts on every runtime.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { devnetCli } from '@chain-devnet/devnet';
import { E2E_LOGS_DIR } from './manifest.js';

/** `devnet test devnet/scenarios/NAME.yaml` on processes; its output (printed), asserted to pass. */
async function runScenario(name: string): Promise<string> {
  await mkdir(E2E_LOGS_DIR, { recursive: true });
  const file = fileURLToPath(new URL(`../../devnet/scenarios/${name}.yaml`, import.meta.url));
  const r = await devnetCli(
    [
      'test',
      file,
      '--runtime',
      'process',
      '--junit',
      join(E2E_LOGS_DIR, `${name}-process.xml`),
      '--logs-dir',
      E2E_LOGS_DIR,
    ],
    { timeoutMs: 580_000 },
  );
  for (const line of r.stdout.trimEnd().split('\n')) console.log(`# [${name}] ${line}`);
  assert.equal(r.code, 0, `devnet test exited ${r.code}: ${r.stderr}`);
  assert.match(
    r.stdout,
    /invariant: the same header at every height on every node: heights 1\.\.\d+ on validator-0, validator-1, validator-2, validator-3/,
  );
  assert.match(r.stdout, /✔ invariants/);
  return r.stdout;
}

test('devnet/scenarios/upgrade-plan.yaml run by devnet test on the process runtime', {
  timeout: 600_000,
}, async () => {
  const out = await runScenario('upgrade-plan');
  assert.match(out, /✔ steps\[1\] a plan to 1\.1\.0 at height 40, signed by the validators/);
  assert.match(out, /✔ steps\[5\] the old ones halt at the plan's height/);
  assert.match(out, /✔ steps\[7\] and wait there, half the power being down/);
  assert.match(out, /✔ steps\[10\] the chain goes on past the height/);
});

test('devnet/scenarios/rolling-upgrade.yaml run by devnet test on the process runtime', {
  timeout: 600_000,
}, async () => {
  const out = await runScenario('rolling-upgrade');
  assert.match(out, /✔ steps\[1\] two validators on the new version, two on the old/);
  assert.match(out, /✔ steps\[4\] every node on the new version, one after another/);
  assert.match(out, /load: \d+ submitted, (\d+) confirmed, 0 failed/);
});
