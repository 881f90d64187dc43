/**
 * `devnet upgrade plan --version V --height H` and `devnet upgrade cancel` as a user types them
 * (issue 28), on a process devnet of four validators of this checkout: the plan is signed by
 * validators one after another until it is scheduled, every node shows it in GET /upgrades, the
 * cancel (no version or height: the pending plan) is signed until it is cancelled, and every node
 * runs past the height. A cancel with nothing pending is refused saying so.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson, UpgradePlanJson } from '../../src/json/jsonShapes.js';

describe('devnet upgrade plan and cancel', { timeout: 10 * 60_000 }, () => {
  let dir = '';
  let home = '';
  let rpcs: RpcClient[] = [];
  const heights = async () => Promise.all(rpcs.map(async (r) => (await r.status()).height));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-upgrade-plan-'));
    home = join(dir, 'home');
    const base = await freeDevnetBase(4, false);
    const up = await devnetCli(
      [
        'up',
        '--runtime',
        'process',
        '--validators',
        '4',
        '--block-time',
        '400ms',
        '--base-port',
        String(base),
      ].concat(['--no-monitoring', '--no-ui', '--home', home]),
      { timeoutMs: 300_000 },
    );
    assert.equal(up.code, 0, up.stderr);
    rpcs = (await devnetJson<StatusJson>(['status', '--home', home])).nodes.map(
      (n) => new RpcClient(n.rpc, 5_000),
    );
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('a cancel with nothing pending is refused, saying so', async () => {
    const r = await devnetCli(['upgrade', 'cancel', '--home', home]);
    // A usage error (BAD_FLAG): exit code 2.
    assert.equal(r.code, 2);
    assert.match(r.stderr, /devnet upgrade cancel: no plan is pending \(GET \/upgrades\)/);
  });

  test('a plan scheduled by the validators, shown by every node, cancelled before its height: every node runs past it', async () => {
    // Ten blocks ahead of each of the three signatures' blocks, sent one after another: 30 leave room.
    const height = Math.max(...(await heights())) + 30;
    const version = (await rpcs[0]!.upgrades()).protocol_version;
    const plan = await devnetCli(
      ['upgrade', 'plan', '--version', '9.1.0', '--height', String(height), '--home', home],
      {
        timeoutMs: 120_000,
      },
    );
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(
      plan.stdout,
      new RegExp(
        `^9\\.1\\.0 at height ${height}: scheduled \\(signed by validator-0, validator-1, validator-2\\)`,
      ),
    );
    // Every node has it scheduled (one a block behind the node the signatures went to, in a moment).
    await waitFor('every node shows the plan scheduled', 30_000, async () =>
      (await Promise.all(rpcs.map((r) => r.upgrades()))).every((u) =>
        u.pending.some(
          (p) => p.target_version === '9.1.0' && p.upgrade_height === height && p.scheduled && !p.supported,
        ),
      ),
    );

    const cancel = await devnetJson<UpgradePlanJson>(['upgrade', 'cancel', '--home', home], {
      timeoutMs: 120_000,
    });
    assert.ok(cancel.done, JSON.stringify(cancel));
    assert.deepEqual([cancel.target_version, cancel.upgrade_height], ['9.1.0', height]);
    // More than 1/3 of four: two signatures.
    assert.deepEqual(cancel.signed_by, ['validator-0', 'validator-1']);
    assert.ok(Math.max(...(await heights())) < height, 'cancelled before its height');

    // Past the height, every node runs (none halted for a version this build cannot run).
    await waitFor(`every node past height ${height}`, 120_000, async () =>
      (await heights().catch(() => [0])).every((h) => h > height + 1),
    );
    for (const u of await Promise.all(rpcs.map((r) => r.upgrades()))) {
      assert.deepEqual(u.pending, []);
      assert.equal(u.protocol_version, version, 'the chain stays at its protocol version');
    }
    const s = await devnetJson<StatusJson>(['status', '--home', home]);
    assert.deepEqual(
      s.nodes.map((n) => n.state),
      ['running', 'running', 'running', 'running'],
    );
  });
});
