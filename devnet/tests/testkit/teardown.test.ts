/**
 * What a run started is always torn down (process runtime): when the test fails (withTestnet:
 * every node's log kept in a folder it names), on SIGTERM (a child process that started a
 * testnet is signalled: nothing is left), and when the run was killed (SIGKILL: its nodes
 * outlive it; the next start tears them down, keeping their logs first). Each test has its own
 * run registry and log folder.
 */
import assert from 'node:assert/strict';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { processesMentioning, startProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { Testnet, withTestnet } from '../../src/testkit/index.js';
import { reapLeftovers } from '../../src/testkit/reaper.js';
import { RunRegistry } from '../../src/testkit/registry.js';

const CHILD = fileURLToPath(new URL('./startTestnet.js', import.meta.url));
const MANIFEST = { validators: 2, block_time: '300ms' } as const;

const gone = async (path: string) =>
  access(path).then(
    () => false,
    () => true,
  );

describe('testkit teardown', () => {
  let dir = '';
  let env: NodeJS.ProcessEnv = {};
  const saved = { registry: process.env.TESTKIT_REGISTRY, logs: process.env.TESTKIT_LOGS_DIR };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'testkit-teardown-'));
    env = { TESTKIT_REGISTRY: join(dir, 'registry'), TESTKIT_LOGS_DIR: join(dir, 'logs') };
    Object.assign(process.env, env);
  });
  afterEach(async () => {
    // A test that failed half-way leaves nothing either: its dead runs are reaped.
    await reapLeftovers(new RunRegistry(env.TESTKIT_REGISTRY), () => undefined);
    for (const [k, v] of [
      ['TESTKIT_REGISTRY', saved.registry],
      ['TESTKIT_LOGS_DIR', saved.logs],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await rm(dir, { recursive: true, force: true });
  });

  test('a failed test: every node log kept in a named folder, nothing left, the registry empty', async () => {
    let home = '';
    const lines: string[] = [];
    await assert.rejects(
      withTestnet(
        { manifest: MANIFEST, runtime: 'process', name: 'failing', log: (l) => lines.push(l) },
        async (net) => {
          home = net.home;
          await net.waitBlocks(2);
          throw new Error('the test failed');
        },
      ),
      /the test failed/,
    );
    assert.ok(await gone(home), 'the home is removed');
    assert.deepEqual(await processesMentioning(home), []);
    assert.deepEqual(await readdir(env.TESTKIT_REGISTRY!), []);
    const [kept] = await readdir(env.TESTKIT_LOGS_DIR!);
    assert.match(kept!, /^failing-process-\d{8}-\d{6}$/);
    const folder = join(env.TESTKIT_LOGS_DIR!, kept!);
    // The devnet's archive at the failure is kept beside the logs (devnet up --from reopens it).
    // And every log on one timeline (devnet logs --all's lines).
    assert.deepEqual((await readdir(folder)).sort(), [
      'devnet.tar.gz',
      'status.json',
      'timeline.log',
      'validator-0.log',
      'validator-1.log',
      'why.txt',
    ]);
    assert.match(await readFile(join(folder, 'validator-1.log'), 'utf8'), /"msg":"block committed"/);
    assert.match(
      await readFile(join(folder, 'timeline.log'), 'utf8'),
      /^\S+ \S+ {2}validator-1 {2}INFO {3}block committed {2}height=\d+/m,
    );
    assert.ok(
      lines.some((l) => l === `the run failed: every node's log kept in ${folder}`),
      lines.join('\n'),
    );
  });

  test('SIGTERM: the process that started the testnet takes it down before it exits', async () => {
    const child = startProgram({ args: [CHILD], env: { ...process.env, ...env }, name: 'startTestnet' });
    const home = (await child.waitForLine(/^READY (.+)$/, 120_000))[1]!;
    assert.ok((await processesMentioning(home)).length >= 2, 'its nodes run');
    child.signal('SIGTERM');
    const exit = await child.exited;
    assert.equal(exit.code, 143, child.describe());
    assert.deepEqual(await processesMentioning(home), []);
    assert.ok(await gone(home), 'the home is removed');
    assert.deepEqual(await readdir(env.TESTKIT_REGISTRY!), []);
    const [kept] = await readdir(env.TESTKIT_LOGS_DIR!);
    assert.match(kept!, /^signalled-process-/, 'an interrupted run keeps its logs');
  });

  test('SIGKILL: the nodes outlive the run; the next start tears them down and keeps their logs', async () => {
    const child = startProgram({ args: [CHILD], env: { ...process.env, ...env }, name: 'startTestnet' });
    const home = (await child.waitForLine(/^READY (.+)$/, 120_000))[1]!;
    await child.stop('SIGKILL');
    const left = await processesMentioning(home);
    assert.ok(left.length >= 2, `a killed run leaves its nodes running: ${left.join('; ')}`);
    assert.equal((await readdir(env.TESTKIT_REGISTRY!)).length, 1, 'and its record');

    const lines: string[] = [];
    const next = await Testnet.start({
      manifest: MANIFEST,
      runtime: 'process',
      name: 'next',
      log: (l) => lines.push(l),
    });
    try {
      await waitFor(
        'the killed run to be gone',
        10_000,
        async () => (await processesMentioning(home)).length === 0,
      );
      assert.ok(await gone(home), 'its home is removed');
      assert.ok(
        lines.some((l) => l.startsWith(`a killed run left this behind: torn down ${home} on process`)),
        lines.join('\n'),
      );
      const kept = (await readdir(env.TESTKIT_LOGS_DIR!)).filter((x) => x.startsWith('signalled-'));
      assert.equal(kept.length, 1, 'the killed run keeps its logs');
      assert.equal(
        await readFile(join(env.TESTKIT_LOGS_DIR!, kept[0]!, 'why.txt'), 'utf8'),
        'a killed run left this behind\n',
      );
      // The new run is recorded, the killed one is not any more.
      assert.equal((await readdir(env.TESTKIT_REGISTRY!)).length, 1);
    } finally {
      await next.stop();
    }
    assert.deepEqual(await readdir(env.TESTKIT_REGISTRY!), []);
  });
});
