/**
 * The repository's docker-compose.yml and prometheus.yml are what `devnet compose` writes for
 * the defaults, describe the same validators as `devnet up` with that seed, and are accepted by
 * docker-compose and promtool.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findOnPath, type RunResult, runProgram } from '@chain-devnet/kit/process';
import { repoPath } from '../../src/base/repo.js';
import { COMPOSE_DEFAULTS, renderCompose, renderComposePrometheus } from '../../src/compose/compose.js';
import { CHAIN_NODE_JS } from '../../src/runtime/process/programs.js';
import { buildNetworkSpec } from '../../src/spec/networkSpec.js';

/** A program run to its end; it must succeed. */
async function run(command: string, args: string[]): Promise<RunResult> {
  const r = await runProgram({ command, args });
  assert.equal(r.code, 0, `${command} ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r;
}

test("docker-compose.yml and prometheus.yml are devnet compose's output for the defaults", async () => {
  assert.equal(await readFile(repoPath('docker-compose.yml'), 'utf8'), renderCompose(COMPOSE_DEFAULTS));
  assert.equal(await readFile(repoPath('prometheus.yml'), 'utf8'), renderComposePrometheus(COMPOSE_DEFAULTS));
});

test('the compose devnet has the validators and peer ids of devnet up with the same seed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'devnet-compose-'));
  try {
    // What the compose `init` service runs, here on the host.
    await run(process.execPath, [
      CHAIN_NODE_JS,
      'testnet',
      '--containers',
      '--output',
      dir,
      '--validators',
      String(COMPOSE_DEFAULTS.validators),
      '--seed',
      COMPOSE_DEFAULTS.seed,
    ]);
    const spec = buildNetworkSpec({ manifest: { seed: COMPOSE_DEFAULTS.seed }, genesisTime: 0 });
    for (const n of spec.nodes) {
      const key = JSON.parse(await readFile(join(dir, n.name, 'validator_key.json'), 'utf8')) as {
        address: string;
      };
      assert.equal(key.address, n.key.address, n.name);
      const nodeFile = JSON.parse(await readFile(join(dir, n.name, 'node.json'), 'utf8')) as {
        port: number;
        p2p_port: number;
        host: string;
        bootstrap: string[];
      };
      assert.deepEqual([nodeFile.port, nodeFile.p2p_port, nodeFile.host], [8000, 9000, '0.0.0.0']);
      // Peers by service name, as the compose file names the services.
      assert.deepEqual(
        nodeFile.bootstrap.map((b) => b.split('/')[2]),
        spec.nodes.filter((m) => m !== n).map((m) => m.name),
      );
    }
    // A second run (a restarted compose) keeps the chain it made.
    const again = await run(process.execPath, [
      CHAIN_NODE_JS,
      'testnet',
      '--containers',
      '--if-absent',
      '--output',
      dir,
    ]);
    assert.match(again.stdout, /already holds a testnet/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('docker-compose config accepts docker-compose.yml', async (t) => {
  if (findOnPath('docker-compose') === null) {
    if (process.env.CI === 'true')
      assert.fail('docker-compose is not installed (apt-get install docker-compose)');
    t.skip('docker-compose is not installed (apt-get install docker-compose)');
    return;
  }
  const r = await run('docker-compose', ['-f', repoPath('docker-compose.yml'), 'config', '--quiet']);
  assert.equal(r.stderr.replace(/^.*(WARN|warn).*$/gm, '').trim(), '');
});

test('promtool accepts prometheus.yml', async (t) => {
  if (findOnPath('promtool') === null) {
    if (process.env.CI === 'true') assert.fail('promtool is not installed (apt-get install prometheus)');
    t.skip('promtool is not installed (apt-get install prometheus)');
    return;
  }
  const r = await run('promtool', ['check', 'config', repoPath('prometheus.yml')]);
  assert.match(r.stdout, /SUCCESS/);
});
