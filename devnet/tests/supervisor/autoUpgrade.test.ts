/**
 * `devnet up --auto-upgrade` on the process runtime: the supervisor runs beside the devnet (a
 * host process, its log in <home>/supervisor/), watches every node's exit status, leaves a node
 * that ended otherwise than by the upgrade-halt code alone (a crash is not an upgrade), and stops
 * with the devnet; and, with validators on an older build of this repository (the harness's OLDER_COMMIT,
 * which has no migration to 1.1.0) and `upgrades: {"1.1.0": "checkout"}`, restarts every node that halts
 * at a real plan's height on this checkout's build, where the migration is applied and the chain
 * goes on.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UPGRADE_HALT_EXIT_CODE } from '@chain-devnet/node/chain';
import { RpcClient } from '@chain-devnet/node/client';
import { OLDER_COMMIT, processesMentioning, readExitStatus, waitFor } from '@chain-devnet/node/harness';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson, UpgradePlanJson } from '../../src/jsonShapes.js';
import { Layout } from '../../src/layout.js';
import { newMemory, superviseOnce } from '../../src/supervisor/loop.js';
import { supervisorLogFile, supervisorPid } from '../../src/supervisor/process.js';

describe('the auto-upgrade supervisor on the process runtime', { timeout: 300_000 }, () => {
  let dir = '';
  let home = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-supervisor-'));
    home = join(dir, 'home');
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('it runs with the devnet, leaves a crashed node down, and stops with the devnet', async () => {
    const base = await freeDevnetBase(3, false);
    const up = await devnetCli(
      [
        'up',
        '--runtime',
        'process',
        '--validators',
        '3',
        '--block-time',
        '400ms',
        '--base-port',
        String(base),
        '--no-monitoring',
        '--no-ui',
        '--auto-upgrade',
        '--home',
        home,
      ],
      { timeoutMs: 240_000 },
    );
    assert.equal(up.code, 0, up.stderr);
    assert.match(up.stdout + up.stderr, /auto-upgrade: the supervisor restarts nodes that halt for a plan/);
    const layout = new Layout(home);
    assert.notEqual(await supervisorPid(layout), null, 'the supervisor runs');
    await waitFor('the supervisor to start', 30_000, async () =>
      (await readFile(supervisorLogFile(layout), 'utf8').catch(() => '')).includes('supervising the devnet'),
    );

    assert.equal((await devnetCli(['kill', 'validator-2', '--home', home])).code, 0);
    const code = await readExitStatus(layout.exitFile('validator-2'));
    assert.equal(code, 137, 'SIGKILL: 128 + 9');
    assert.notEqual(code, UPGRADE_HALT_EXIT_CODE);
    // One look of the supervisor's own (the background one looks every second too): nothing restarted.
    assert.deepEqual(await superviseOnce(home, newMemory(), () => undefined), []);
    const s = await devnetJson<StatusJson>(['status', '--home', home]);
    assert.equal(s.nodes[2]!.state, 'stopped');

    assert.equal((await devnetCli(['stop', '--home', home])).code, 0);
    assert.equal(await supervisorPid(layout), null, 'stopped with the devnet');
    const started = await devnetCli(['start', '--home', home], { timeoutMs: 240_000 });
    assert.equal(started.code, 0, started.stderr);
    assert.notEqual(await supervisorPid(layout), null, 'started again with it');
    assert.equal((await devnetCli(['down', '--home', home])).code, 0);
    assert.deepEqual(await processesMentioning(home), []);
  });

  test("a node that halts for a plan is restarted on the plan's version, the migration applied", async () => {
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
      ['up', '--runtime', 'process', '--manifest', manifest, '--base-port', String(base)].concat([
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
        assert.ok(
          own.includes(`UPGRADE NEEDED: plan 1.1.0 at height ${height}`),
          `${n.name}: the halt's line`,
        );
        assert.ok(own.includes(`devnet: ${n.name} exited with code 3; started again on checkout`), n.name);
      }
    } finally {
      await devnetCli(['down', '--home', planned]);
    }
  });
});
