/**
 * UPDATE_VALIDATOR (chain/execute/updateValidator.ts): one table row per situation, then its
 * failures (ruleTable.ts, failureTable.ts).
 */
import { coins, TREASURY_ADDRESS } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { acct, valAddr } from '../../../world.js';
import { carolEjected, carolInactive, type ErrorCase, failureTable } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('UPDATE_VALIDATOR', [
  {
    name: 'carol INACTIVE (name carol, 10%, reward to herself) -> new name only',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { name: 'carol-2' } })],
    after: {
      accounts: {
        carol: { balance: coins(1) - FEE.UPDATE_VALIDATOR, nonce: 1 },
        'val-0': { balance: REWARD + FEE.UPDATE_VALIDATOR, nonce: 0 },
      },
      validators: {
        carol: { name: 'carol-2', commissionPpm: 100_000, rewardAddress: acct('carol'), stake: coins(200) },
      },
    },
  },
  {
    name: 'carol INACTIVE at 10% -> commission_rate 0 (zero is a value, not "unchanged")',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { commissionPpm: 0 } })],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UPDATE_VALIDATOR, nonce: 1 } },
      validators: { carol: { name: 'carol', commissionPpm: 0, rewardAddress: acct('carol') } },
    },
  },
  {
    name: 'carol INACTIVE at 10% -> commission_rate 1 (the upper bound is allowed)',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { commissionPpm: 1_000_000 } })],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UPDATE_VALIDATOR, nonce: 1 } },
      validators: { carol: { commissionPpm: 1_000_000 } },
    },
  },
  {
    name: 'carol JAILED -> name, commission 0.05 and reward address dave, all at once',
    before: { accounts: { carol: coins(1) }, validators: { carol: { stake: coins(200), status: 'JAILED' } } },
    txs: (s) => [
      tx(s, 'carol', 'UPDATE_VALIDATOR', {
        payload: { name: 'c', commissionPpm: 50_000, rewardAddress: acct('dave') },
      }),
    ],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UPDATE_VALIDATOR, nonce: 1 } },
      validators: {
        carol: {
          name: 'c',
          commissionPpm: 50_000,
          rewardAddress: acct('dave'),
          status: 'JAILED',
          stake: coins(200),
        },
      },
    },
  },
]);

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR with amount 5',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { amount: 5n, payload: { name: 'x' } }),
    message: 'amount must be 0 for UPDATE_VALIDATOR, got 5',
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'alice has no validator -> UPDATE_VALIDATOR',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UPDATE_VALIDATOR', { payload: { name: 'x' } }),
    message: `unknown validator ${valAddr('alice')}`,
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> UPDATE_VALIDATOR name',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { name: 'back' } }),
    message: 'was ejected after its third jailing and cannot act again',
  },
  {
    code: 'INVALID_COMMISSION',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR commission_rate 1.000001',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { commissionPpm: 1_000_001 } }),
    message: 'commission_rate must be between 0 and 1, got 1.000001',
  },
  {
    code: 'INVALID_PAYLOAD',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR with an empty payload',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: {} }),
    message: 'UPDATE_VALIDATOR needs at least one of name, commission_rate, reward_address',
  },
  {
    code: 'INVALID_PAYLOAD',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR with the treasury address as reward_address',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { rewardAddress: TREASURY_ADDRESS } }),
    message: `reward_address ${TREASURY_ADDRESS} is a reserved address (burn or treasury)`,
  },
];

failureTable('UPDATE_VALIDATOR failures: each changes nothing', FAILURES);
