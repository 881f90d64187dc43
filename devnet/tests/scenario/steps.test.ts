/**
 * The steps issue 25 added, run by `devnet test` on the process runtime: a transaction the node
 * refuses at admission (status rejected, with its reason), results handed from step to step
 * (`as`, `${name.field}`), and the task market's flow (devnet/scenarios/market.yaml: post, claim,
 * SUBMIT_RESULT, completed). Two small devnets, one after the other; the testkit takes each down.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoPath } from '../../src/base/repo.js';
import { devnetCli } from '../../src/harness/cli.js';

const HANDED_ON = `name: handed-on
manifest: { validators: 4, block_time: 400ms, monitoring: false }
steps:
  - name: UNJAIL of a validator that is not jailed is refused at admission
    tx: { type: UNJAIL, from: validator-2, status: rejected, error: not jailed }
  - tx: { type: UNJAIL, from: validator-1, status: rejected, error: { matches: "validator coinvalcons1\\\\w+ is not jailed \\\\(status ACTIVE\\\\)" } }
  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 1coin }
    as: pay
  - expect: { tx: { hash: "\${pay.hash}", status: confirmed } }
  - expect: { height: { atLeast: "\${pay.height}" } }
  - name: back to the sender of \${pay}
    tx: { type: TRANSFER, from: account-1, to: "\${pay.from}", amount: 1wei }
  - add: { name: late }
    as: late
  - stop: { node: "\${late}" }
  - name: a name is a label, \${nothing} in it stays as written
    heal: {}
`;

describe('issue 25 steps on the process runtime', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenario-steps-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('rejected transactions, results handed on, and the market flow: every step passes', {
    timeout: 240_000,
  }, async () => {
    const file = join(dir, 'handed-on.yaml');
    await writeFile(file, HANDED_ON);
    const market = repoPath('devnet', 'scenarios', 'market.yaml');
    const t0 = Date.now();
    const r = await devnetCli(
      ['test', file, market, '--runtime', 'process', '--logs-dir', join(dir, 'logs')],
      {
        timeoutMs: 200_000,
      },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const label of [
      'steps[0] UNJAIL of a validator that is not jailed is refused at admission',
      'steps[1] tx UNJAIL from validator-1',
      'steps[3] expect tx',
      'steps[5] back to the sender of ${pay}',
      'steps[7] stop ${late}',
      'steps[8] a name is a label, ${nothing} in it stays as written',
      'steps[0] a task posted, its reward paid into the escrow',
      'steps[1] market claim',
      'steps[2] the result committed on chain',
      'steps[4] expect task',
    ])
      assert.ok(r.stdout.includes(`  ✔ ${label} (`), `${label} passed:\n${r.stdout}`);
    assert.match(r.stdout, /2 of 2 scenarios passed/);
    console.log(`two scenarios in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });

  test('a step expecting rejected fails when the node admits the transaction, naming what happened', {
    timeout: 120_000,
  }, async () => {
    const file = join(dir, 'not-rejected.yaml');
    await writeFile(
      file,
      'manifest: { validators: 4, block_time: 400ms, monitoring: false }\nsteps:\n' +
        '  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 1coin, status: rejected }\n',
    );
    const r = await devnetCli(['test', file, '--runtime', 'process', '--logs-dir', join(dir, 'logs')], {
      timeoutMs: 100_000,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /expected the TRANSFER [0-9a-f]{64} rejected; found confirmed/);
  });
});
