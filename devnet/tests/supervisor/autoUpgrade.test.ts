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
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { processesMentioning, readExitStatus } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { UPGRADE_HALT_EXIT_CODE } from '@chain-devnet/node/chain';
import { Layout } from '../../src/base/layout.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson } from '../../src/json/jsonShapes.js';
import { newMemory, superviseOnce } from '../../src/supervisor/loop.js';
import { supervisorLogFile, supervisorPid } from '../../src/supervisor/process.js';
import { haltedAndRestarted } from './haltedAndRestarted.js';

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

  test("a node that halts for a plan is restarted on the plan's version, the migration applied", () =>
    haltedAndRestarted(dir, 'process'));
});
