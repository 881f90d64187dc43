/**
 * UNJAIL (chain/execute/unjail.ts): one table row per situation, then one per way it fails
 * (ruleTable.ts, failureTable.ts).
 */

import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { valAddr } from '../../../world.js';
import {
  carolEjected,
  carolInactive,
  carolJailed,
  type ErrorCase,
  failureTable,
  MIN_STAKE,
} from './failureTable.js';
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

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'carol JAILED -> UNJAIL with amount 1',
    before: carolJailed,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL', { amount: 1n }),
    message: 'amount must be 0 for UNJAIL, got 1',
  },
  {
    code: 'BELOW_MIN_STAKE',
    name: 'carol JAILED with 95 coins (slashed below the minimum) -> UNJAIL',
    before: {
      accounts: { carol: coins(5000) },
      validators: { carol: { stake: coins(95), status: 'JAILED' } },
    },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: `stake 95000000000000000000 wei is below the minimum stake ${MIN_STAKE} wei: STAKE more before UNJAIL`,
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'alice has no validator -> UNJAIL',
    before: { accounts: { alice: coins(5000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNJAIL'),
    message: `unknown validator ${valAddr('alice')}`,
  },
  {
    code: 'NOT_JAILED',
    name: 'carol INACTIVE -> UNJAIL',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: `validator ${valAddr('carol')} is not jailed (status INACTIVE)`,
  },
  {
    code: 'NOT_JAILED',
    name: 'val-0 ACTIVE, with no balance at all -> UNJAIL (the rule is checked before the balance)',
    before: {},
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UNJAIL'),
    message: 'is not jailed (status ACTIVE)',
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> UNJAIL',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: 'was ejected after its third jailing and cannot act again',
  },
];

failureTable('UNJAIL failures: each changes nothing', FAILURES);
