/**
 * `devnet test` against real devnets (process runtime; a heavy test: run it under the heavy-tests
 * lock). A small scenario passes (exit 0) and, with --keep, leaves its devnet running; one
 * written to fail exits 1 with a message naming the step, the node and the height, skips the rest,
 * keeps every node's log, and says so in its JUnit report.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';

const MANIFEST = 'manifest: { validators: 4, block_time: 400ms, monitoring: false }\n';

describe('devnet test on the process runtime', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenario-run-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a passing scenario: each step printed, invariants checked, exit 0; --keep leaves it up', {
    timeout: 240_000,
  }, async () => {
    const file = join(dir, 'passing.yaml');
    await writeFile(
      file,
      `name: passing\n${MANIFEST}steps:\n` +
        '  - expect: { height: { atLeast: 3 } }\n' +
        '  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 2coin }\n' +
        '  - pause: { node: validator-2 }\n' +
        '  - wait: { blocks: 2, nodes: [validator-0, validator-1, validator-3] }\n' +
        '  - resume: { node: validator-2 }\n' +
        '  - expect: { synced: { within: { blocks: 20 } } }\n',
    );
    const r = await devnetCli(['test', file, '--runtime', 'process', '--keep'], { timeoutMs: 200_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const label of [
      'steps[0] expect height',
      'steps[1] tx TRANSFER from account-0',
      'steps[2] pause validator-2',
      'steps[5] expect synced',
      'invariants',
    ])
      assert.match(
        r.stdout,
        new RegExp(
          `▶ ${label.replace(/[[\]]/g, '\\$&')}[^\\n]*\\n(.*\\n)*?  ✔ ${label.replace(/[[\]]/g, '\\$&')}`,
        ),
        label,
      );
    assert.match(r.stdout, /invariant: no confirmed transaction lost: 1 transactions on every node/);
    assert.match(r.stdout, /PASS passing in/);
    const home = /kept running in (\S+):/.exec(r.stdout)?.[1];
    assert.ok(home !== undefined, `the kept home is printed: ${r.stdout}`);
    try {
      const status = await devnetCli(['status', '--home', home, '--json']);
      assert.equal(status.code, 0, status.stderr);
      const nodes = (JSON.parse(status.stdout) as { nodes: { state: string }[] }).nodes;
      assert.deepEqual(
        nodes.map((n) => n.state),
        ['running', 'running', 'running', 'running'],
      );
    } finally {
      const down = await devnetCli(['down', '--home', home]);
      assert.equal(down.code, 0, down.stderr);
    }
  });

  test('a scenario written to fail: the message names step, node and height; exit 1; JUnit says so', {
    timeout: 240_000,
  }, async () => {
    const file = join(dir, 'failing.yaml');
    await writeFile(
      file,
      `name: written-to-fail\n${MANIFEST}steps:\n` +
        '  - expect: { height: { atLeast: 3 } }\n' +
        '  - kill: { node: validator-3 }\n' +
        '  - name: account-1 holds exactly 1 coin\n' +
        '    expect: { account: { account: account-1, balance: 1coin, nodes: [validator-1], within: { blocks: 2 } } }\n' +
        '  - start: { node: validator-3 }\n',
    );
    const junit = join(dir, 'report.xml');
    const logs = join(dir, 'logs');
    const r = await devnetCli(['test', file, '--runtime', 'process', '--junit', junit, '--logs-dir', logs], {
      timeoutMs: 200_000,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const failure =
      /✘ (step "steps\[2\] account-1 holds exactly 1 coin": validator-1 at height (\d+): expected .*)/.exec(
        r.stdout,
      );
    assert.ok(failure, `the failure names step, node and height:\n${r.stdout}`);
    assert.ok(Number(failure[2]) >= 3, `height ${failure[2]}`);
    assert.doesNotMatch(r.stdout, /▶ steps\[3\]/, 'no step runs after a failure');
    assert.match(r.stdout, /FAIL written-to-fail/);
    assert.match(r.stdout, /0 of 1 scenarios passed/);
    // Every node's log kept for the failed run.
    const kept = await readdir(logs);
    assert.equal(kept.length, 1, kept.join(', '));
    const files = await readdir(join(logs, kept[0]!));
    for (const n of ['validator-0', 'validator-1', 'validator-2', 'validator-3'])
      assert.ok(files.includes(`${n}.log`), files.join(', '));

    const xml = await readFile(junit, 'utf8');
    assert.match(xml, /<testsuite name="written-to-fail" [^>]*tests="6" failures="1" errors="0" skipped="2"/);
    assert.match(
      xml,
      new RegExp(
        `<failure message="step &quot;steps\\[2\\] account-1 holds exactly 1 coin&quot;: validator-1 at height ${failure[2]}: expected`,
      ),
    );
    assert.match(
      xml,
      /<testcase name="steps\[3\] start validator-3" [^>]*>\s*<skipped message="an earlier step failed"\/>/,
    );
    assert.match(
      xml,
      /<testcase name="invariants" [^>]*>\s*<skipped message="not checked: the run failed"\/>/,
    );
  });
});
