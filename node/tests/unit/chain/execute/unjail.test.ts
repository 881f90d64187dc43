/** UNJAIL (chain/execute/unjail.ts): one table row per situation; figures and runner in ruleTable.ts. */
import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('UNJAIL', [
  {
    name: 'carol JAILED (1 jailing, 950 coins, slots 3/7), 2000 coins -> UNJAIL: 1000 coins burned, ACTIVE, slots reset',
    before: {
      accounts: { carol: coins(2000) },
      validators: {
        carol: { stake: coins(950), status: 'JAILED', jailCount: 1, slotsProduced: 3, slotsMissed: 7 },
      },
    },
    txs: (s) => [tx(s, 'carol', 'UNJAIL')],
    after: {
      accounts: {
        carol: { balance: coins(2000) - coins(1000) - FEE.UNJAIL, nonce: 1 },
        'val-0': { balance: REWARD + FEE.UNJAIL, nonce: 0 },
      },
      validators: {
        carol: { status: 'ACTIVE', stake: coins(950), jailCount: 1, slotsProduced: 0, slotsMissed: 0 },
      },
      burned: coins(1000),
    },
  },
  {
    name: 'carol JAILED with exactly the minimum stake (100 coins) and exactly unjail fee + fee -> UNJAIL: balance 0',
    before: {
      accounts: { carol: coins(1000) + FEE.UNJAIL },
      validators: { carol: { stake: coins(100), status: 'JAILED', jailCount: 2 } },
    },
    txs: (s) => [tx(s, 'carol', 'UNJAIL')],
    after: {
      accounts: { carol: { balance: 0n, nonce: 1 } },
      validators: { carol: { status: 'ACTIVE', stake: coins(100), jailCount: 2 } },
      burned: coins(1000),
    },
  },
  {
    name: 'max_validators 1, val-0 ACTIVE, carol JAILED -> UNJAIL: the set is full, carol becomes INACTIVE',
    before: {
      params: { max_validators: 1 },
      accounts: { carol: coins(2000) },
      validators: { carol: { stake: coins(500), status: 'JAILED' } },
    },
    txs: (s) => [tx(s, 'carol', 'UNJAIL')],
    after: {
      accounts: { carol: { balance: coins(1000) - FEE.UNJAIL, nonce: 1 } },
      validators: { carol: { status: 'INACTIVE', stake: coins(500) } },
      burned: coins(1000),
    },
  },
]);
