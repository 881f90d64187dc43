/** The transaction JSON and its strict parser (tx/wire.ts): format failures, one encoding per value. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, txFromJson, txToJson } from '../../../../src/chain/index.js';
import { genesisState, key, tx } from '../../../fixtures.js';
import { acct, build, valAddr } from '../../../world.js';

// ---------------------------------------------------------------------------------------------
// Format failures (txFromJson): the RPC's 400 "Invalid transaction format".

describe('format failures', () => {
  const state = build({ accounts: { alice: coins(1000) } });
  const transfer = txToJson(tx(state, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(5) }));
  const delegate = txToJson(tx(state, 'alice', 'DELEGATE', { to: valAddr('val-0'), amount: coins(5) }));
  const stake = txToJson(tx(state, 'alice', 'STAKE', { amount: coins(100) }));
  const submit = txToJson(
    tx(state, 'alice', 'SUBMIT_RESULT', {
      payload: { taskId: '0f8fad5b-d9cb-469f-a165-70867728950e', resultHash: 'aa'.repeat(32) },
    }),
  );
  const { to_address: _dropped, ...transferWithoutTo } = transfer;
  const plan = txToJson(
    tx(state, 'alice', 'UPGRADE_PLAN', { payload: { targetVersion: '1.1.0', upgradeHeight: 500 } }),
  );

  it('an UPGRADE_PLAN (extension) round-trips with its plan, and its plan fields are checked', () => {
    const r = txFromJson(JSON.parse(JSON.stringify(plan)));
    assert.ok(r.ok);
    assert.deepEqual(r.tx.payload, { targetVersion: '1.1.0', upgradeHeight: 500 });
    assert.deepEqual(txToJson(r.tx), plan);
    const reasonOf = (payload: unknown) => {
      const x = txFromJson({ ...plan, payload });
      return x.ok ? null : x.reason;
    };
    assert.equal(reasonOf({ upgrade_height: 500 }), 'payload.target_version is required for UPGRADE_PLAN');
    assert.equal(
      reasonOf({ target_version: 'v1.1', upgrade_height: 500 }),
      'payload.target_version must be a version MAJOR.MINOR.PATCH',
    );
    assert.equal(
      reasonOf({ target_version: '1.1.0', upgrade_height: 0 }),
      'payload.upgrade_height must be an integer from 1 to 2^53-1',
    );
    assert.equal(
      reasonOf({ target_version: '1.1.0', upgrade_height: '500' }),
      'payload.upgrade_height must be an integer from 1 to 2^53-1',
    );
    assert.equal(
      reasonOf({ target_version: '1.1.0', upgrade_height: 500, memo: 'x' }),
      'payload field memo is not allowed for UPGRADE_PLAN',
    );
    // The eight types take no plan fields.
    assert.equal(txFromJson({ ...transfer, payload: { target_version: '1.1.0' } }).ok, false);
  });

  it('accepts the untouched JSON and gives back the same transaction', () => {
    const r = txFromJson(JSON.parse(JSON.stringify(transfer)));
    assert.ok(r.ok);
    assert.deepEqual(txToJson(r.tx), transfer);
    assert.equal(r.tx.amount, coins(5));
  });

  it('accepts commission_rate 1.5 as format (the range is the rule INVALID_COMMISSION)', () => {
    const r = txFromJson({ ...stake, payload: { commission_rate: 1.5 } });
    assert.ok(r.ok);
    assert.equal(r.tx.payload.commissionPpm, 1_500_000);
  });

  const rows: readonly { name: string; input: unknown; reason: string }[] = [
    { name: 'a string', input: 'TRANSFER', reason: 'body must be a JSON object' },
    { name: 'null', input: null, reason: 'body must be a JSON object' },
    { name: 'an array', input: [transfer], reason: 'body must be a JSON object' },
    { name: 'an unknown field', input: { ...transfer, memo: 'x' }, reason: 'unknown field memo' },
    { name: 'an unknown tx_type', input: { ...transfer, tx_type: 'MINT' }, reason: 'tx_type must be one of' },
    {
      name: 'from_address with the validator prefix',
      input: { ...transfer, from_address: valAddr('alice') },
      reason: 'from_address must be a coin1 address',
    },
    {
      name: 'pub_key in upper-case hex',
      input: { ...transfer, pub_key: transfer.pub_key.toUpperCase() },
      reason: 'pub_key must be 66 lowercase hex',
    },
    {
      name: 'pub_key with a 0x prefix',
      input: { ...transfer, pub_key: `0x${transfer.pub_key}` },
      reason: 'pub_key must be 66 lowercase hex',
    },
    {
      name: 'signature with a non-hex character',
      input: { ...transfer, signature: `zz${transfer.signature.slice(2)}` },
      reason: 'signature must be 130 lowercase hex',
    },
    {
      name: 'signature one byte short',
      input: { ...transfer, signature: transfer.signature.slice(2) },
      reason: 'signature must be 130 lowercase hex',
    },
    {
      name: 'amount "01" (leading zero)',
      input: { ...transfer, amount: '01' },
      reason: 'amount must be decimal digits',
    },
    { name: 'amount "-1"', input: { ...transfer, amount: '-1' }, reason: 'amount must be decimal digits' },
    { name: 'amount "1.5"', input: { ...transfer, amount: '1.5' }, reason: 'amount must be decimal digits' },
    { name: 'amount ""', input: { ...transfer, amount: '' }, reason: 'amount must be decimal digits' },
    {
      name: 'amount 2^256',
      input: { ...transfer, amount: (1n << 256n).toString() },
      reason: 'amount must be decimal digits below 2^256',
    },
    {
      name: 'amount as a JSON number',
      input: { ...transfer, amount: 5 },
      reason: 'amount must be a decimal string',
    },
    { name: 'fee "1e6"', input: { ...transfer, fee: '1e6' }, reason: 'fee must be decimal digits' },
    {
      name: 'nonce -1',
      input: { ...transfer, nonce: -1 },
      reason: 'nonce must be an integer from 0 to 2^53-1',
    },
    { name: 'nonce 1.5', input: { ...transfer, nonce: 1.5 }, reason: 'nonce must be an integer' },
    { name: 'gas_price "0"', input: { ...transfer, gas_price: '0' }, reason: 'gas_price must be an integer' },
    {
      name: 'TRANSFER to_address with the validator prefix',
      input: { ...transfer, to_address: valAddr('bob') },
      reason: 'to_address must be a coin1 address for TRANSFER',
    },
    {
      name: 'DELEGATE to_address with the account prefix',
      input: { ...delegate, to_address: acct('val-0') },
      reason: 'to_address must be a coinvalcons1 address for DELEGATE',
    },
    {
      name: 'TRANSFER to_address with a broken checksum',
      input: {
        ...transfer,
        to_address: `${acct('bob').slice(0, -1)}${acct('bob').endsWith('q') ? 'p' : 'q'}`,
      },
      reason: 'to_address must be a coin1 address for TRANSFER',
    },
    {
      name: 'TRANSFER without to_address',
      input: transferWithoutTo,
      reason: 'to_address is required for TRANSFER',
    },
    {
      name: 'TRANSFER with to_address null',
      input: { ...transfer, to_address: null },
      reason: 'to_address is required for TRANSFER',
    },
    {
      name: 'STAKE with a to_address',
      input: { ...stake, to_address: acct('bob') },
      reason: 'to_address must be absent for STAKE',
    },
    {
      name: 'TRANSFER with payload.name',
      input: { ...transfer, payload: { name: 'x' } },
      reason: 'payload field name is not allowed for TRANSFER',
    },
    {
      name: 'STAKE with payload.memo',
      input: { ...stake, payload: { memo: 'hi' } },
      reason: 'payload field memo is not allowed for STAKE',
    },
    {
      name: 'UNSTAKE with payload.commission_rate',
      input: { ...stake, tx_type: 'UNSTAKE', payload: { commission_rate: 0.1 } },
      reason: 'payload field commission_rate is not allowed for UNSTAKE',
    },
    {
      name: 'payload not an object',
      input: { ...transfer, payload: 'memo' },
      reason: 'payload must be an object',
    },
    {
      name: 'SUBMIT_RESULT without result_hash',
      input: { ...submit, payload: { task_id: '0f8fad5b-d9cb-469f-a165-70867728950e' } },
      reason: 'payload.result_hash is required for SUBMIT_RESULT',
    },
    {
      name: 'SUBMIT_RESULT with an upper-case task_id',
      input: { ...submit, payload: { ...submit.payload, task_id: '0F8FAD5B-D9CB-469F-A165-70867728950E' } },
      reason: 'payload.task_id must be a lowercase UUID',
    },
    {
      name: 'commission_rate with 7 decimals',
      input: { ...stake, payload: { commission_rate: 0.1234567 } },
      reason: 'payload.commission_rate must be a non-negative number with at most 6 decimals',
    },
    {
      name: 'commission_rate negative',
      input: { ...stake, payload: { commission_rate: -0.1 } },
      reason: 'payload.commission_rate must be a non-negative number',
    },
    {
      name: 'reward_address with the validator prefix',
      input: { ...stake, payload: { reward_address: valAddr('alice') } },
      reason: 'payload.reward_address must be a coin1 address',
    },
    {
      name: 'memo of 257 bytes',
      input: { ...transfer, payload: { memo: 'm'.repeat(257) } },
      reason: 'payload.memo must be a well-formed string of at most 256 bytes',
    },
    { name: 'chain_id a number', input: { ...transfer, chain_id: 1 }, reason: 'chain_id must be a string' },
  ];

  for (const row of rows) {
    it(`rejects ${row.name}`, () => {
      const r = txFromJson(row.input);
      assert.equal(r.ok, false);
      if (!r.ok)
        assert.ok(r.reason.includes(row.reason), `reason ${JSON.stringify(r.reason)} lacks ${row.reason}`);
    });
  }
});

describe('one value, one encoding', () => {
  it('refuses memos and names with a lone surrogate, which would share bytes with U+FFFD', () => {
    const base = txToJson(tx(genesisState(), 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }));
    for (const memo of ['\uD800', 'a\uDC00b', '\uDBFF']) {
      const r = txFromJson({ ...base, payload: { memo } });
      assert.equal(r.ok, false, JSON.stringify(memo));
    }
    assert.equal(
      txFromJson({ ...base, payload: { memo: '\uFFFD 😀' } }).ok,
      true,
      'well-formed text is fine',
    );
    const stake = {
      ...txToJson(tx(genesisState(), 'alice', 'STAKE', { amount: coins(100) })),
      payload: { name: 'x\uD800' },
    };
    assert.equal(txFromJson(stake).ok, false);
  });
});
