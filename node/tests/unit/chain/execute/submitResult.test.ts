/**
 * SUBMIT_RESULT (execute/submitResult.ts) and the compute_root it feeds: one table row per
 * situation, then its failures.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, computeRoot } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { acct, chainOf } from '../../../world.js';
import { type ErrorCase, failureTable } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

const EMPTY_ROOT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'; // SHA-256 of ""
const TASK_A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const TASK_B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const HASH_A = 'aa'.repeat(32);
const HASH_B = '0123456789abcdef'.repeat(4);

table('SUBMIT_RESULT', [
  {
    name: 'alice 1 coin -> one result: fee paid, compute_root is the root of that one result',
    before: { accounts: { alice: coins(1) } },
    txs: (s) => [tx(s, 'alice', 'SUBMIT_RESULT', { payload: { taskId: TASK_A, resultHash: HASH_A } })],
    after: {
      accounts: {
        alice: { balance: coins(1) - FEE.SUBMIT_RESULT, nonce: 1 },
        'val-0': { balance: REWARD + FEE.SUBMIT_RESULT, nonce: 0 },
      },
    },
    also: (chain, r) => {
      const root = chain.blocks.at(-1)!.header.computeRoot;
      assert.notEqual(root, EMPTY_ROOT);
      assert.equal(
        root,
        computeRoot([
          { txHash: r.outcomes[0]!.txHash, taskId: TASK_A, resultHash: HASH_A, worker: acct('alice') },
        ]),
      );
    },
  },
  {
    name: 'alice and bob 1 coin each -> two results in one block: the root covers both, in block order',
    before: { accounts: { alice: coins(1), bob: coins(1) } },
    txs: (s) => [
      tx(s, 'bob', 'SUBMIT_RESULT', { payload: { taskId: TASK_B, resultHash: HASH_B } }),
      tx(s, 'alice', 'SUBMIT_RESULT', { payload: { taskId: TASK_A, resultHash: HASH_A } }),
    ],
    after: {
      accounts: {
        alice: { balance: coins(1) - FEE.SUBMIT_RESULT, nonce: 1 },
        bob: { balance: coins(1) - FEE.SUBMIT_RESULT, nonce: 1 },
        'val-0': { balance: REWARD + 160_000_000n, nonce: 0 },
      },
    },
    also: (chain, r) => {
      const root = chain.blocks.at(-1)!.header.computeRoot;
      const b = { txHash: r.outcomes[0]!.txHash, taskId: TASK_B, resultHash: HASH_B, worker: acct('bob') };
      const a = { txHash: r.outcomes[1]!.txHash, taskId: TASK_A, resultHash: HASH_A, worker: acct('alice') };
      assert.equal(root, computeRoot([b, a]));
      assert.notEqual(root, computeRoot([a, b]));
      assert.notEqual(root, EMPTY_ROOT);
    },
  },
]);

describe('compute_root without results', () => {
  it('is the empty Merkle root (SHA-256 of "") for a block with no SUBMIT_RESULT', () => {
    const chain = chainOf({ accounts: { alice: coins(1) } });
    chain.produce([tx(chain.state, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n })]);
    assert.equal(chain.blocks[0]!.header.computeRoot, EMPTY_ROOT);
    assert.equal(computeRoot([]), EMPTY_ROOT);
  });
});

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'alice -> SUBMIT_RESULT with amount 1',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) =>
      tx(s, 'alice', 'SUBMIT_RESULT', {
        amount: 1n,
        payload: { taskId: '0f8fad5b-d9cb-469f-a165-70867728950e', resultHash: 'aa'.repeat(32) },
      }),
    message: 'amount must be 0 for SUBMIT_RESULT, got 1',
  },
];

failureTable('SUBMIT_RESULT failures: each changes nothing', FAILURES);
