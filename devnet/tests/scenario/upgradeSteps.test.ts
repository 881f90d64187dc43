/**
 * The upgradePlan step (issue 28) run by `devnet test` on the process runtime: the validators
 * sign a plan to a version this build has no migration for until it is scheduled, another plan is
 * refused while it is pending, the plan is cancelled, and every node runs past its height (a
 * node that halted would fail the run's waits and invariants). And the add step's version: a node
 * joins on an older build of this repository (OLDER_COMMIT, from the build cache) and syncs, on a
 * devnet at protocol 1.0.0, the only one that build runs (this checkout's devnets start at 1.2.0).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OLDER_COMMIT } from '@chain-devnet/node/builds';
import { devnetCli } from '../../src/harness/cli.js';

const PLAN_AND_CANCEL = `name: plan-and-cancel
manifest: { validators: 4, block_time: 400ms, monitoring: false }
steps:
  - upgradePlan: { version: 9.1.0, height: 60 }
    as: plan
  - name: another plan is refused while one is scheduled
    tx: { type: UPGRADE_PLAN, from: validator-3, targetVersion: 9.2.0, upgradeHeight: 90, status: rejected, error: cancel it first }
  - upgradePlan: { cancel: true }
  - name: every node past the plan's height
    at: { height: "\${plan.height}" }
    wait: { blocks: 3 }
`;

describe('the upgradePlan step on the process runtime', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenario-upgrade-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a plan scheduled by the validators, another refused meanwhile, then cancelled: the chain goes on', {
    timeout: 180_000,
  }, async () => {
    const file = join(dir, 'plan-and-cancel.yaml');
    await writeFile(file, PLAN_AND_CANCEL);
    const r = await devnetCli(['test', file, '--runtime', 'process', '--logs-dir', join(dir, 'logs')], {
      timeoutMs: 160_000,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const label of [
      'steps[0] upgradePlan',
      'steps[1] another plan is refused while one is scheduled',
      'steps[2] upgradePlan',
      "steps[3] every node past the plan's height",
    ])
      assert.ok(r.stdout.includes(`  ✔ ${label} (`), `${label} passed:\n${r.stdout}`);
  });

  test('the add step with a version: the node joins on that build and syncs', {
    timeout: 600_000,
  }, async () => {
    const file = join(dir, 'add-on-version.yaml');
    await writeFile(
      file,
      `name: add-on-version
manifest: { validators: 3, block_time: 400ms, monitoring: false, protocol_version: 1.0.0 }
steps:
  - add: { name: old-joiner, version: "git:${OLDER_COMMIT}" }
  - expect: { synced: { within: { blocks: 20 } } }
`,
    );
    const r = await devnetCli(['test', file, '--runtime', 'process', '--logs-dir', join(dir, 'logs')], {
      timeoutMs: 580_000,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(r.stdout.includes('  ✔ steps[0] add old-joiner ('), r.stdout);
    assert.match(r.stdout, new RegExp(`old-joiner: starting on git:${OLDER_COMMIT}, syncing`));
  });
});
