/** UPDATE_VALIDATOR (chain/execute/updateValidator.ts): one table row per situation; figures and runner in ruleTable.ts. */
import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { acct } from '../../../world.js';
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
