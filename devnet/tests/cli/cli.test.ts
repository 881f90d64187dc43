/**
 * The devnet command's contract with people and scripts: every command has --help, bad input
 * gets a clear error that says what to do (and the exit code 2 for bad flags), nothing is
 * left behind by a refused `up`, and --json errors are machine-readable.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { ErrorJson, StatusJson } from '../../src/json/jsonShapes.js';
import { NODE_OPS } from '../../src/operations/nodeOp.js';

describe('devnet command line', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-cli-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('every command has --help', async () => {
    const main = await devnetCli(['--help']);
    assert.equal(main.code, 0);
    for (const command of [
      'up',
      'status',
      'logs',
      'add',
      ...NODE_OPS,
      'tx',
      'down',
      'compose',
      'k8s',
      'test',
      'ui',
    ]) {
      assert.match(main.stdout, new RegExp(`\\b${command}\\b`), `the main help names ${command}`);
      const r = await devnetCli([command, '--help']);
      assert.equal(r.code, 0, `${command} --help`);
      assert.match(r.stdout, new RegExp(`devnet [a-z|]*${command}`), `${command} --help shows its usage`);
    }
  });

  test('devnet save --help says what save does on every runtime, the swarm included', async () => {
    // The swarm runtime's suite saves and restores its devnet (archive/swarmCrossing.ts); the help
    // said "Not on the swarm runtime yet" (issue 39).
    const r = await devnetCli(['save', '--help']);
    assert.equal(r.code, 0);
    const text = r.stdout.replace(/\s+/g, ' ');
    assert.match(text, /On every runtime: process, threads, docker and swarm/);
    assert.doesNotMatch(text, /not on the swarm/i);
  });

  test('an unknown command or flag is exit code 2 with a pointer to help', async () => {
    const r = await devnetCli(['launch']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command launch: devnet help lists the commands/);
    const f = await devnetCli(['up', '--validatorz', '3', '--home', join(dir, 'x')]);
    assert.equal(f.code, 2);
    assert.match(f.stderr, /--validatorz.*see devnet up --help/s);
    const n = await devnetCli(['up', '--validators', 'many', '--home', join(dir, 'x')]);
    assert.equal(n.code, 2);
    assert.match(n.stderr, /--validators must be an integer from 1 to 64, got many/);
  });

  test('a bad manifest names the bad field, and nothing is made', async () => {
    const file = join(dir, 'net.yaml');
    await writeFile(file, 'validators:\n  - name: a\n    stake: plenty\nblock_time: 2s\ncolour: blue\n');
    const home = join(dir, 'bad-manifest');
    const r = await devnetCli(['up', '--manifest', file, '--home', home, '--runtime', 'process']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /validators\[0\]\.stake must be an amount like 1000coin/);
    assert.match(r.stderr, /colour is not a manifest field/);
    await assert.rejects(readdir(home), 'no home folder was made');
  });

  test('a chain parameter that the node refuses is named', async () => {
    const file = join(dir, 'params.json');
    await writeFile(file, JSON.stringify({ params: { epoch_length: 0 } }));
    const r = await devnetCli([
      'up',
      '--manifest',
      file,
      '--home',
      join(dir, 'p'),
      '--runtime',
      'process',
      '--json',
    ]);
    assert.equal(r.code, 1);
    const err = (JSON.parse(r.stdout) as ErrorJson).error;
    assert.equal(err.code, 'BAD_MANIFEST');
    assert.match(err.message, /epoch_length/);
  });

  test('a taken port says which and what to do, and nothing is made', async () => {
    const base = await freeDevnetBase(4);
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(base + 2, '127.0.0.1', resolve));
    try {
      const home = join(dir, 'port');
      const r = await devnetCli(['up', '--base-port', String(base), '--home', home, '--runtime', 'process']);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(`port ${base + 2} \\(validator-2 RPC\\) is already in use.*--base-port`),
      );
      await assert.rejects(readdir(home), 'no home folder was made');
    } finally {
      blocker.close();
    }
  });

  test("the panel's port taken is said before anything starts, and nothing is made", async () => {
    const base = await freeDevnetBase(4);
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(base + 1092, '127.0.0.1', resolve));
    try {
      const home = join(dir, 'panel-port');
      const r = await devnetCli(['up', '--base-port', String(base), '--home', home, '--runtime', 'process']);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(`port ${base + 1092} \\(the panel\\) is already in use.*--base-port`),
      );
      await assert.rejects(readdir(home), 'no home folder was made');
    } finally {
      blocker.close();
    }
  });

  test('--runtime docker without an engine says how to get one', async () => {
    const r = await devnetCli(['up', '--runtime', 'docker', '--home', join(dir, 'd')], {
      timeoutMs: 60_000,
      env: { DOCKER_HOST: `unix://${join(dir, 'no-such.sock')}` },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no Docker engine answers .*start one .*or use --runtime process/);
  });

  test('--runtime swarm without an engine says what it drives', async () => {
    const r = await devnetCli(['up', '--runtime', 'swarm', '--home', join(dir, 's')], {
      timeoutMs: 60_000,
      env: { DOCKER_HOST: `unix://${join(dir, 'no-such.sock')}` },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no Docker engine answers .*the swarm runtime drives a swarm manager's engine/);
  });

  test('swarm settings on another runtime are refused, and nothing is made', async () => {
    const home = join(dir, 'p');
    const manifest = join(dir, 'placed.yaml');
    await writeFile(
      manifest,
      'validators: [{ placement: worker-1 }, {}]\nengines: { worker-1: "tcp://10.0.0.2:2375" }\n',
    );
    const r = await devnetCli([
      'up',
      '--runtime',
      'process',
      '--manifest',
      manifest,
      '--registry',
      'registry.example.com:5000',
      '--home',
      home,
    ]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /registry \(--registry\), engines, validators\[0\]\.placement: for the swarm runtime only \(this devnet runs on process\)/,
    );
    await assert.rejects(readdir(home), 'no home folder was made');
  });

  test('commands on a devnet that does not exist say how to make one', async () => {
    for (const args of [['status'], ['kill', 'validator-0'], ['down'], ['logs'], ['ui'], ['ui', '--serve']]) {
      const r = await devnetCli([...args, '--home', join(dir, 'none')]);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, /no devnet in .*devnet up/);
    }
    // A program parsing --json gets the command's error in its exception, and the code in the JSON.
    await assert.rejects(
      devnetJson<StatusJson>(['status', '--home', join(dir, 'none')]),
      /^Error: devnet status --home \S+ exited 1: \{"error":\{"code":"NO_DEVNET","message":"no devnet in /,
    );
  });

  test('commands that need a node of a stopped devnet name the node that does not answer, never an internal error', async () => {
    const home = join(dir, 'stopped');
    const base = await freeDevnetBase(1, false, false);
    const up = ['up', '--runtime', 'process', '--validators', '1', '--block-time', '200ms'];
    await devnetJson([...up, '--base-port', String(base), '--no-monitoring', '--no-ui', '--home', home]);
    try {
      assert.equal((await devnetCli(['stop', '--home', home])).code, 0);
      const error = async (args: string[]) => {
        const r = await devnetCli([...args, '--home', home, '--json']);
        assert.equal(r.code, 1, args.join(' '));
        return (JSON.parse(r.stdout) as ErrorJson).error;
      };
      // add asks the first node its height: it said "internal error: fetch failed".
      const add = await error(['add']);
      assert.equal(add.code, 'UNREACHABLE', add.message);
      assert.match(
        add.message,
        new RegExp(
          `^http://127\\.0\\.0\\.1:${base}/\\S+: no answer \\(ECONNREFUSED\\): is the devnet running\\?`,
        ),
      );
      const status = await devnetJson<StatusJson>(['status', '--home', home]);
      assert.deepEqual(
        status.nodes.map((n) => n.name),
        ['validator-0'],
        'nothing recorded for the node not added',
      );
      // tx asks any node that answers.
      const tx = await error(['tx', 'send', '--from', 'account-0', '--to', 'account-1', '--amount', '1coin']);
      assert.deepEqual(tx, {
        code: 'NO_DEVNET',
        message: 'no node of the devnet answers: see devnet status',
      });
    } finally {
      await devnetCli(['down', '--home', home]);
    }
  });
});
