/**
 * Versions on the process runtime, against real builds: a devnet whose validator-0 runs an older
 * commit of this repository (built into the cache) and the others this checkout; status shows
 * each node's version and the one it reports (GET /upgrades). `devnet upgrade validator-0 --to
 * path:CHECKOUT` restarts it on this checkout with its data (its blocks kept, its height goes on);
 * `devnet upgrade --all --to git:OLDER` moves every node, one after another, each back in
 * consensus; the versions stay in devnet.json through a whole-devnet stop and start. `devnet add
 * --version` starts a joining node on the version it names.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readPid, runProgram } from '@chain-devnet/kit/process';
import { RpcClient } from '@chain-devnet/node/client';
import { Layout } from '../../src/base/layout.js';
import { nodePackagePath, repoRoot } from '../../src/base/repo.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { AddJson, StatusJson, UpgradeJson } from '../../src/json/jsonShapes.js';
import { OLDER_NODE_VERSION, OLDER_SHOWN, OLDER_VERSION, olderBuild, upWithVersions } from './olderBuild.js';

/** The node_version this checkout's nodes report: its node package's. */
const CHECKOUT_NODE_VERSION = (
  JSON.parse(await readFile(nodePackagePath('package.json'), 'utf8')) as { version: string }
).version;

const NODES = ['validator-0', 'validator-1', 'validator-2', 'validator-3'];

describe('node versions on the process runtime', { timeout: 20 * 60_000 }, () => {
  let dir = '';
  let home = '';
  let older = '';
  const status = () => devnetJson<StatusJson>(['status', '--home', home]);
  const versions = async () => Object.fromEntries((await status()).nodes.map((n) => [n.name, n.version]));
  /** The chain-node program a node's process runs (its command line). */
  const programOf = async (name: string) => {
    const pid = await readPid(new Layout(home).pidFile(name));
    assert.ok(pid !== null, `${name} runs`);
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[1]!;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-versions-'));
    home = join(dir, 'home');
    // Built before the devnet (once; the other tests reuse it), so that `up`'s bound is the devnet's.
    older = await olderBuild();
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('one validator on an older build, the others on this checkout: the chain runs and status shows each version', async () => {
    await upWithVersions(dir, home, 'process', [{ version: OLDER_VERSION }, {}, {}, {}]);
    assert.ok((await programOf('validator-0')).startsWith(older), 'validator-0 runs the older build');
    assert.ok(!(await programOf('validator-1')).startsWith(older));
    const s = await status();
    assert.deepEqual(
      s.nodes.map((n) => n.version),
      [OLDER_SHOWN, 'checkout', 'checkout', 'checkout'],
    );
    // Each reports its own node version: the older build its own, this checkout the node package's.
    assert.deepEqual(
      s.nodes.map((n) => n.nodeVersion),
      [OLDER_NODE_VERSION, CHECKOUT_NODE_VERSION, CHECKOUT_NODE_VERSION, CHECKOUT_NODE_VERSION],
    );
    assert.notEqual(CHECKOUT_NODE_VERSION, OLDER_NODE_VERSION);
    const text = await devnetCli(['status', '--home', home]);
    assert.match(
      text.stdout,
      new RegExp(`validator-0 .* ${OLDER_SHOWN} \\(${OLDER_NODE_VERSION.replaceAll('.', '\\.')}\\)`),
    );
    assert.match(text.stdout, /VERSION/);
  });

  test('devnet upgrade validator-0 --to path:CHECKOUT: the same data, on this checkout, back in consensus', async () => {
    const client = new RpcClient((await status()).nodes[0]!.rpc);
    const before = await client.status();
    const block1 = await client.block(1);
    const r = await devnetJson<UpgradeJson>(
      ['upgrade', 'validator-0', '--to', `path:${repoRoot()}`, '--home', home],
      {
        timeoutMs: 300_000,
      },
    );
    assert.equal(r.upgraded.length, 1);
    assert.equal(r.upgraded[0]!.from, OLDER_VERSION);
    assert.equal(r.upgraded[0]!.to, `path:${repoRoot()}`);
    // Its store was kept: it answers its old blocks and goes on above where it was.
    assert.ok(r.upgraded[0]!.height > before.height, `${r.upgraded[0]!.height} > ${before.height}`);
    assert.deepEqual(await client.block(1), block1);
    assert.ok((await programOf('validator-0')).startsWith(repoRoot()));
    assert.equal((await versions())['validator-0'], `path:${repoRoot()}`);
    // Its log goes on across the swap: the older run's lines, how it ended, then the new run's.
    const log = (await devnetCli(['logs', 'validator-0', '--home', home])).stdout.split('\n');
    const swap = log.indexOf(`devnet: validator-0 exited with code 0; started again on path:${repoRoot()}`);
    assert.ok(swap > 0, `the swap's line after the older run's lines: ${log.slice(-5).join(' | ')}`);
    assert.ok(log.length > swap + 2, 'the new run logs after it');
  });

  test('devnet upgrade --all --to git:OLDER: one node after another, each back in consensus; kept across stop and start', async () => {
    const r = await devnetJson<UpgradeJson>(['upgrade', '--all', '--to', OLDER_VERSION, '--home', home], {
      timeoutMs: 600_000,
    });
    assert.deepEqual(
      r.upgraded.map((u) => u.node),
      NODES,
    );
    // Rolling: each came back above the height the one before it came back at.
    for (let i = 1; i < r.upgraded.length; i++)
      assert.ok(r.upgraded[i]!.height > r.upgraded[i - 1]!.height, JSON.stringify(r.upgraded));
    for (const n of NODES) assert.ok((await programOf(n)).startsWith(older), `${n} on the older build`);
    const state = JSON.parse(await readFile(new Layout(home).stateFile, 'utf8')) as { versions: object };
    assert.deepEqual(state.versions, Object.fromEntries(NODES.map((n) => [n, OLDER_VERSION])));

    assert.equal((await devnetCli(['stop', '--home', home])).code, 0);
    const started = await devnetCli(['start', '--home', home], { timeoutMs: 300_000 });
    assert.equal(started.code, 0, started.stderr);
    for (const n of NODES) assert.ok((await programOf(n)).startsWith(older), `${n} still on the older build`);
    assert.deepEqual(
      Object.values(await versions()),
      NODES.map(() => OLDER_SHOWN),
    );
  });

  test('devnet save records each version; up --from restores the devnet on them', async () => {
    const file = join(dir, 'versions.tar.gz');
    assert.equal((await devnetCli(['save', file, '--home', home], { timeoutMs: 300_000 })).code, 0);
    const listed = await runProgram({ command: 'sh', args: ['-c', `tar -xzOf "${file}" manifest.json`] });
    const manifest = JSON.parse(listed.stdout) as { versions: Record<string, string> };
    assert.deepEqual(manifest.versions, Object.fromEntries(NODES.map((n) => [n, OLDER_VERSION])));
    const again = join(dir, 'restored');
    try {
      const base = await freeDevnetBase(4, false);
      const r = await devnetCli(
        [
          'up',
          '--from',
          file,
          '--runtime',
          'process',
          '--base-port',
          String(base),
          '--no-ui',
          '--home',
          again,
        ],
        { timeoutMs: 300_000 },
      );
      assert.equal(r.code, 0, r.stderr);
      const s = await devnetJson<StatusJson>(['status', '--home', again]);
      assert.deepEqual(
        s.nodes.map((n) => n.version),
        NODES.map(() => OLDER_SHOWN),
      );
    } finally {
      await devnetCli(['down', '--home', again]);
    }
  });

  test('a version that cannot run here is refused before the node goes down', async () => {
    const r = await devnetCli(['upgrade', 'validator-1', '--to', 'image:chain-node:1', '--home', home]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /image:chain-node:1: an image runs on the docker and swarm runtimes only/);
    assert.equal((await status()).nodes[1]!.state, 'running');
    const bad = await devnetCli(['upgrade', 'validator-1', '--to', 'git:no-such-ref-here', '--home', home]);
    assert.match(bad.stderr, /--to: git:no-such-ref-here: no commit of that name/);
  });

  test('devnet add --version: the node joins on the version it names; one this runtime cannot run is refused, nothing recorded', async () => {
    const refused = await devnetCli([
      'add',
      '--name',
      'imaged',
      '--version',
      'image:chain-node:1',
      '--home',
      home,
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /image:chain-node:1: an image runs on the docker and swarm runtimes only/);
    const malformed = await devnetCli(['add', '--name', 'bad', '--version', 'v1', '--home', home]);
    assert.equal(malformed.code, 1);
    assert.match(
      malformed.stderr,
      /--version: "v1" is not a version: use checkout, git:REF, path:DIR or image:NAME/,
    );
    assert.deepEqual(
      (await status()).nodes.map((n) => n.name),
      NODES,
      'nothing recorded for a node not added',
    );

    // The validators run the older build (the --all upgrade above): so does the node added on it.
    const r = await devnetJson<AddJson>(
      ['add', '--name', 'late', '--version', OLDER_VERSION, '--home', home],
      {
        timeoutMs: 300_000,
      },
    );
    assert.equal(r.name, 'late');
    assert.ok((await programOf('late')).startsWith(older), 'late runs the older build');
    const late = (await status()).nodes.find((n) => n.name === 'late');
    assert.deepEqual([late?.version, late?.nodeVersion], [OLDER_SHOWN, OLDER_NODE_VERSION]);
    const state = JSON.parse(await readFile(new Layout(home).stateFile, 'utf8')) as {
      versions: Record<string, string>;
      added: { name: string }[];
    };
    assert.equal(state.versions.late, OLDER_VERSION, 'pinned in devnet.json');
    assert.deepEqual(
      state.added.map((a) => a.name),
      ['late'],
    );
    // And one without --version runs this checkout's build, as before.
    await devnetJson<AddJson>(['add', '--name', 'later', '--home', home], { timeoutMs: 300_000 });
    assert.ok(!(await programOf('later')).startsWith(older));
    assert.equal((await status()).nodes.find((n) => n.name === 'later')?.version, 'checkout');
  });
});
