/**
 * `devnet upgrade` onto a version that refuses the node's store (issue 39), on the process runtime
 * with real builds: three validators on this checkout, at protocol 1.0.0, move the chain to 1.1.0 (a plan
 * it has the migration for); the harness's older build (OLDER_COMMIT) runs only 1.0.0, so on
 * that store it exits with code 4 at once. The command sees the exit at once (it waited about
 * 37 s and said TIMEOUT), names the node, both versions, the exit code and the node's reason, and
 * leaves the node as it was: back on this checkout and running, or stopped when it was stopped
 * (halted). A halt (exit 3) is seen in `devnet status` (it showed no exit code).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readPid } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { Layout } from '../../src/base/layout.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import type { StatusJson, UpgradePlanJson } from '../../src/json/jsonShapes.js';
import { OLDER_VERSION, olderBuild, upWithVersions } from './olderBuild.js';

const REFUSAL =
  /chain-node: (this node is too old for the chain|a downgrade past the upgrade to 1\.1\.0 applied at height \d+ is refused): the stored state is at protocol version 1\.1\.0/;

describe('devnet upgrade onto a version that refuses the store', { timeout: 20 * 60_000 }, () => {
  let dir = '';
  let home = '';
  let older = '';
  const status = () => devnetJson<StatusJson>(['status', '--home', home]);
  const node = async (name: string) => (await status()).nodes.find((n) => n.name === name)!;
  /** The chain-node program a node's process runs (its command line). */
  const programOf = async (name: string) => {
    const pid = await readPid(new Layout(home).pidFile(name));
    assert.ok(pid !== null, `${name} runs`);
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[1]!;
  };
  /** Every node's protocol version, once each answers it. */
  const protocols = async () =>
    Promise.all(
      (await status()).nodes.map(
        async (n) => (await new RpcClient(n.rpc, 5_000).upgrades()).protocol_version,
      ),
    );
  /** A plan to `version` signed by every validator, 30 blocks ahead (as haltedAndRestarted's). */
  const plan = async (version: string) => {
    const top = Math.max(...(await status()).nodes.map((n) => n.height ?? 0));
    const r = await devnetJson<UpgradePlanJson>(
      ['upgrade', 'plan', '--version', version, '--height', String(top + 30), '--home', home],
      { timeoutMs: 60_000 },
    );
    assert.ok(r.done, `the plan to ${version} is scheduled: ${JSON.stringify(r)}`);
    return top + 30;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-refused-upgrade-'));
    home = join(dir, 'home');
    older = await olderBuild();
    // At 1.0.0, the older build's version (this checkout's genesis would start at 1.2.0).
    await upWithVersions(dir, home, 'process', [{}, {}, {}], { protocol_version: '1.0.0' });
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('the chain moves to protocol 1.1.0 on this checkout', async () => {
    const height = await plan('1.1.0');
    await waitFor(`every node on 1.1.0 past height ${height}`, 120_000, async () =>
      (await protocols().catch(() => [])).every((v) => v === '1.1.0') ? true : null,
    );
  });

  test('upgrade validator-0 onto the older build: refused at once, naming all; back on checkout and running', async (t) => {
    const began = Date.now();
    const r = await devnetCli(['upgrade', 'validator-0', '--to', OLDER_VERSION, '--home', home], {
      timeoutMs: 300_000,
    });
    const took = Date.now() - began;
    t.diagnostic(`${took} ms: ${r.stderr.trim()}`);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /timed out|TIMEOUT/);
    const said = r.stderr.replace(/\s+/g, ' ');
    assert.match(
      said,
      new RegExp(
        `validator-0 did not come back on ${OLDER_VERSION} \\(from checkout\\): chain-node exited with code 4: it refuses a store of a protocol version it does not run; its log: `,
      ),
    );
    assert.match(said, REFUSAL, "the node's own reason, with the versions");
    assert.match(said, /It is back on checkout, running \(at height \d+\), as before the upgrade/);
    // Seen when it exits, not at the end of the progress bound (about 32 s for 3 nodes).
    assert.ok(took < 25_000, `answered in ${took} ms`);
    const v0 = await node('validator-0');
    assert.deepEqual([v0.state, v0.up, v0.version, v0.exitCode], ['running', true, 'checkout', null]);
    assert.ok(!(await programOf('validator-0')).startsWith(older), 'it runs this checkout again');
    const state = JSON.parse(await readFile(new Layout(home).stateFile, 'utf8')) as {
      versions?: Record<string, string>;
    };
    assert.notEqual(
      state.versions?.['validator-0'],
      OLDER_VERSION,
      'devnet.json does not say the older build',
    );
    // It goes on with the others.
    const at = v0.height ?? 0;
    await waitFor(
      'validator-0 going on',
      30_000,
      async () => ((await node('validator-0')).height ?? 0) > at + 2,
    );
    // Its log keeps the refused run's reason.
    assert.match((await devnetCli(['logs', 'validator-0', '--home', home])).stdout, REFUSAL);
  });

  test('upgrade --all onto it: stops at the first node, saying which went before and which were not touched', async () => {
    const r = await devnetCli(['upgrade', '--all', '--to', OLDER_VERSION, '--home', home], {
      timeoutMs: 300_000,
    });
    assert.equal(r.code, 1);
    const said = r.stderr.replace(/\s+/g, ' ');
    assert.match(said, /validator-0 did not come back on .* exited with code 4/);
    assert.match(said, /Upgraded to git:\S+ before it: none; not touched: validator-1, validator-2\./);
    assert.deepEqual(
      (await status()).nodes.map((n) => [n.name, n.version]),
      [
        ['validator-0', 'checkout'],
        ['validator-1', 'checkout'],
        ['validator-2', 'checkout'],
      ],
    );
  });

  test('a halt shows its exit code 3 in status; a halted node upgraded onto the refusing version is left stopped, as it was', async () => {
    // This checkout has no migration to 1.3.0 (its newest protocol version is 1.2.0): every node
    // halts at the plan's height.
    const height = await plan('1.3.0');
    await waitFor(`every node halted at ${height} (exit code 3)`, 120_000, async () => {
      const s = await status();
      return s.nodes.every((n) => n.state === 'stopped' && n.exitCode === 3) ? s : null;
    });
    const text = await devnetCli(['status', '--home', home]);
    assert.match(text.stdout, /validator-1 .*stopped .*\(exit code 3\)/);

    const r = await devnetCli(['upgrade', 'validator-1', '--to', OLDER_VERSION, '--home', home], {
      timeoutMs: 300_000,
    });
    assert.equal(r.code, 1);
    const said = r.stderr.replace(/\s+/g, ' ');
    assert.match(said, /validator-1 did not come back on .* exited with code 4/);
    assert.match(said, /It is left stopped, as it was before the upgrade, on checkout/);
    const v1 = await node('validator-1');
    assert.deepEqual([v1.state, v1.version, v1.exitCode], ['stopped', 'checkout', 4]);
  });
});
