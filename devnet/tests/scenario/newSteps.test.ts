/**
 * The file check of what issue 25 added to steps: a transaction expected rejected (with its
 * reason), every transaction type the chain has expressible in a tx step, the market's steps, and
 * results handed on with `as` and `${name.field}`, each reference checked before any devnet
 * starts. No devnet (steps.test.ts runs them).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PAYLOAD_FIELDS, TX_TYPES } from '@chain-devnet/node/chain';
import { parse as parseYaml } from 'yaml';
import { TX_FIELDS } from '../../src/operations/tx.js';
import { checkScenario } from '../../src/scenario/parse.js';
import { SCENARIO_SCHEMA } from '../../src/scenario/schema.js';

const HEAD = 'manifest: { validators: 4, block_time: 400ms }\nsteps:\n';
const MARKET_HEAD = 'manifest: { validators: 4, block_time: 400ms, market: true }\nsteps:\n';

async function problemsOf(steps: string, head = HEAD): Promise<string[]> {
  const r = await checkScenario(parseYaml(head + steps), 'test.yaml', '.');
  return r.ok ? [] : r.problems;
}

/** A value each tx field takes, for a step of any type. */
const SAMPLE: Record<string, string | number> = {
  to: 'validator-1',
  amount: '1coin',
  name: 'v',
  commission: '0.1',
  rewardAddress: 'account-1',
  memo: 'm',
  taskId: '2a9423ac-38b5-89a8-9374-209b80df2dcc',
  resultHash: 'ab'.repeat(32),
  targetVersion: '1.1.0',
  upgradeHeight: 100,
};

describe('issue 25: the new steps are checked with the file', () => {
  test('status rejected, with a reason to contain or match', async () => {
    assert.deepEqual(
      await problemsOf('  - tx: { type: UNJAIL, from: validator-2, status: rejected, error: not jailed }\n'),
      [],
    );
    assert.deepEqual(
      await problemsOf(
        '  - tx: { type: UNJAIL, from: validator-2, status: failed, error: { matches: "jail(ed)?" } }\n',
      ),
      [],
    );
    assert.deepEqual(await problemsOf('  - tx: { type: UNJAIL, from: validator-2, error: not jailed }\n'), [
      'steps[0].tx.error goes with status failed or rejected (the reason it expects)',
    ]);
    assert.match(
      (
        await problemsOf(
          '  - tx: { type: UNJAIL, from: validator-2, status: rejected, error: { matches: "(" } }\n',
        )
      )[0] ?? '',
      /^steps\[0\]\.tx\.error\.matches is not a regular expression/,
    );
  });

  test('every transaction type of the chain is expressible, with exactly the fields it takes', async () => {
    const txFields = Object.keys(SCENARIO_SCHEMA.properties.steps.items.properties.tx.properties);
    for (const type of TX_TYPES) {
      // Every payload field the chain allows this type has a field in the step.
      for (const f of [...TX_FIELDS[type].allowed]) assert.ok(txFields.includes(f), `${type}: ${f}`);
      assert.equal(
        TX_FIELDS[type].allowed.filter((f) => !['to', 'amount'].includes(f)).length,
        PAYLOAD_FIELDS[type].allowed.length,
        `${type}: every payload field`,
      );
      const fields = TX_FIELDS[type].required.map(
        (f) => `, ${f}: ${JSON.stringify(type === 'TRANSFER' && f === 'to' ? 'account-1' : SAMPLE[f])}`,
      );
      const from =
        type === 'TRANSFER' || type === 'DELEGATE' || type === 'UNDELEGATE' ? 'account-0' : 'validator-1';
      assert.deepEqual(
        await problemsOf(`  - tx: { type: ${type}, from: ${from}${fields.join('')} }\n`),
        [],
        type,
      );
    }
    assert.deepEqual(await problemsOf('  - tx: { type: SUBMIT_RESULT, from: account-1 }\n'), [
      'steps[0].tx.resultHash is required for SUBMIT_RESULT',
      'steps[0].tx.taskId is required for SUBMIT_RESULT',
    ]);
  });

  test('upgradePlan: a plan needs a version and a height, a cancel neither', async () => {
    assert.deepEqual(await problemsOf('  - upgradePlan: { version: 1.1.0, height: 60 }\n'), []);
    assert.deepEqual(await problemsOf('  - upgradePlan: { cancel: true }\n'), []);
    assert.deepEqual(await problemsOf('  - upgradePlan: { version: 1.1.0 }\n'), [
      'steps[0].upgradePlan: a plan needs version and height',
    ]);
    assert.equal((await problemsOf('  - upgradePlan: { version: one, height: 60 }\n')).length, 1);
  });

  test("market steps need a devnet with the market, and a payload of the challenge; the market's accounts send nothing", async () => {
    assert.match(
      (
        await problemsOf(
          '  - tx: { type: TRANSFER, from: market, to: account-1, amount: 1coin }\n',
          MARKET_HEAD,
        )
      )[0] ?? '',
      /^steps\[0\]\.tx\.from: "market" is not an account to send from \(account-0, account-1, account-2; the market's own/,
    );
    const post = '  - market: { post: { from: account-1, reward: 1coin } }\n';
    assert.deepEqual(await problemsOf(post), [
      'steps[0].market: the devnet runs no market: set market: true in the manifest (docs/MARKET.md)',
    ]);
    assert.deepEqual(await problemsOf(post, MARKET_HEAD), []);
    assert.deepEqual(
      await problemsOf(
        `${post}    as: t\n  - market: { claim: { task: "\${t}", worker: account-2 } }\n    as: c\n  - expect: { tx: { hash: "\${c.hash}", status: confirmed } }\n  - expect: { tx: { hash: "\${t.hash}", status: confirmed } }\n`,
        MARKET_HEAD,
      ),
      ['steps[2].expect.tx.hash: ${c.hash}: steps[1] (market claim) gives task, worker, height, not hash'],
    );
    assert.deepEqual(
      await problemsOf(
        '  - market: { post: { from: nobody, reward: 1coin, challenge: rendering, payload: { width: 0, colour: red } } }\n',
        MARKET_HEAD,
      ),
      [
        'steps[0].market.post.from: "nobody" is not an account to send from (account-0, account-1, account-2; the market\'s own are its service\'s)',
        'steps[0].market.post.payload.colour is not a field of rendering (fields: scene_uri, width, height, frames, samples_per_pixel)',
        'steps[0].market.post.payload.frames is required for rendering',
        'steps[0].market.post.payload.height is required for rendering',
        'steps[0].market.post.payload.scene_uri is required for rendering',
        'steps[0].market.post.payload.width must be an integer from 1 to 16384, got 0',
      ],
    );
    assert.deepEqual(await problemsOf('  - expect: { task: { task: "${t}", status: completed } }\n'), [
      'steps[0].expect.task: the devnet runs no market: set market: true in the manifest (docs/MARKET.md)',
      'steps[0].expect.task.task: ${t} names no step (steps name their results with as: NAME)',
    ]);
  });

  test('results handed on: every reference names an earlier step and a field it gives', async () => {
    const ok = await problemsOf(
      '  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 1coin }\n    as: pay\n' +
        '  - expect: { tx: { hash: "${pay.hash}", status: confirmed } }\n' +
        '  - at: { height: "${pay.height}" }\n    add: { name: late }\n    as: late\n' +
        '  - kill: { node: "${late}" }\n' +
        '  - expect: { height: { atLeast: "${late.height}" } }\n',
    );
    assert.deepEqual(ok, []);
    assert.deepEqual(
      await problemsOf(
        '  - expect: { tx: { hash: "${pay.hash}", status: confirmed } }\n' +
          '  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 1coin }\n    as: pay\n' +
          '  - expect: { tx: { hash: "${pay.task}", status: confirmed } }\n' +
          '  - expect: { tx: { hash: "${nothing}", status: confirmed } }\n' +
          '  - expect: { log: { contains: "${pay" } }\n' +
          '  - heal: {}\n    as: pay\n',
      ),
      [
        'steps[0].expect.tx.hash: ${pay.hash} names a later step (a step may use only what the steps before it produced)',
        'steps[2].expect.tx.hash: ${pay.task}: steps[1] (tx) gives hash, height, from, not task',
        'steps[3].expect.tx.hash: ${nothing} names no step (steps name their results with as: NAME; named so far: pay)',
        'steps[4].expect.log.contains: "${pay" has a ${ that is no reference like ${name} or ${name.field}',
        'steps[5].as: pay already names steps[1]',
      ],
    );
  });
});
