/**
 * The supervisor's upgrade on a runtime: validators on an older build of this repository (the
 * harness's OLDER_COMMIT, no migration to 1.1.0) with `upgrades: {"1.1.0": "checkout"}` and
 * auto_upgrade; a plan to 1.1.0 signed by `devnet upgrade plan`; every node halts at its height
 * (exit code 3) and is restarted by the supervisor on this checkout's build, where the migration
 * is applied and the chain goes on; each node's log still holds its halt. The devnet is made in
 * `dir` and taken down.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@chain-devnet/kit/wait';
import { OLDER_COMMIT } from '@chain-devnet/node/builds';
import { RpcClient } from '@chain-devnet/node/client';
import { Layout } from '../../src/base/layout.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson, UpgradePlanJson } from '../../src/json/jsonShapes.js';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import { supervisorLogFile } from '../../src/supervisor/process.js';

export async function haltedAndRestarted(dir: string, runtime: RuntimeKind): Promise<void> {
  const planned = join(dir, 'planned');
  const manifest = join(dir, 'auto-upgrade.json');
  await writeFile(
    manifest,
    JSON.stringify({
      validators: [0, 1, 2].map(() => ({ version: `git:${OLDER_COMMIT}` })),
      block_time: '400ms',
      upgrades: { '1.1.0': 'checkout' },
      auto_upgrade: true,
    }),
  );
  const base = await freeDevnetBase(3, false);
  const up = await devnetCli(
    ['up', '--runtime', runtime, '--manifest', manifest, '--base-port', String(base)].concat([
      '--no-monitoring',
      '--no-ui',
      '--home',
      planned,
    ]),
    { timeoutMs: 600_000 },
  );
  try {
    assert.equal(up.code, 0, up.stderr);
    const first = (await devnetJson<StatusJson>(['status', '--home', planned])).nodes;
    const rpcs = first.map((n) => new RpcClient(n.rpc, 5_000));
    assert.deepEqual(
      (await Promise.all(rpcs.map((r) => r.upgrades()))).map((u) => u.protocol_version),
      ['1.0.0', '1.0.0', '1.0.0'],
    );
    // The plan must be 10 blocks ahead of the block of each of its three signatures, sent one
    // after another by a CLI that starts first: 15 blocks (6 s) were too few at load 15 (the
    // third signature in block 9 for a plan at 18); 30 leave room, as mixedVersions' 25.
    const height = Math.max(...(await Promise.all(rpcs.map(async (r) => (await r.status()).height)))) + 30;
    const plan = await devnetJson<UpgradePlanJson>(
      ['upgrade', 'plan', '--version', '1.1.0', '--height', String(height), '--home', planned],
      { timeoutMs: 60_000 },
    );
    assert.ok(plan.done, `the plan is scheduled: ${JSON.stringify(plan)}`);
    // Every node halts at the height (exit 3), the supervisor restarts it on the checkout's
    // build, which applies 1.1.0 there; the chain goes on past it.
    await waitFor(`every node on 1.1.0 past height ${height}`, 120_000, async () => {
      const seen = await Promise.all(
        rpcs.map(async (r) => {
          const [u, st] = await Promise.all([r.upgrades(), r.status()]);
          return u.protocol_version === '1.1.0' && st.height > height + 2;
        }),
      ).catch(() => [false]);
      return seen.every(Boolean);
    });
    const after = await devnetJson<StatusJson>(['status', '--home', planned]);
    for (const n of after.nodes)
      assert.equal(n.version, 'checkout', `${n.name} runs the checkout's build now`);
    const log = await readFile(supervisorLogFile(new Layout(planned)), 'utf8');
    for (const n of after.nodes)
      assert.match(
        log,
        new RegExp(`${n.name}\\b[^\\n]*1\\.1\\.0`),
        `the supervisor says it upgraded ${n.name}`,
      );
    // Each node's own log still says why it stopped, how, and on what it came back.
    for (const n of after.nodes) {
      const own = (await devnetCli(['logs', n.name, '--home', planned])).stdout;
      assert.ok(own.includes(`UPGRADE NEEDED: plan 1.1.0 at height ${height}`), `${n.name}: the halt's line`);
      assert.ok(own.includes(`devnet: ${n.name} exited with code 3; started again on checkout`), n.name);
    }
  } finally {
    await devnetCli(['down', '--home', planned]);
  }
}
