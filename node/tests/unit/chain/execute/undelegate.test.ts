/**
 * UNDELEGATE (chain/execute/undelegate.ts): one table row per situation, then one per way it fails
 * (ruleTable.ts, failureTable.ts).
 */

import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { acct, valAddr } from '../../../world.js';
import { carolInactive, type ErrorCase, failureTable } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('UNDELEGATE', [
  {
    name: 'alice has 80 coins delegated to carol -> UNDELEGATE 30 coins: 50 stay, 30 unbond until height 1 + 4',
    before: {
      accounts: { alice: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      delegations: [['alice', 'carol', coins(80)]],
    },
    txs: (s) => [tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(30) })],
    after: {
      accounts: {
        alice: { balance: coins(1) - FEE.UNDELEGATE, nonce: 1 },
        'val-0': { balance: REWARD + FEE.UNDELEGATE, nonce: 0 },
      },
      validators: { carol: { stake: coins(200), totalDelegated: coins(50) } },
      delegations: { 'alice>carol': { amount: coins(50), createdHeight: 0 } },
      unbonding: [
        { delegator: 'alice', validator: 'carol', amount: coins(30), creationHeight: 1, completionHeight: 5 },
      ],
    },
  },
  {
    name: 'alice 80 and bob 20 coins delegated to carol -> alice undelegates all 80: her delegation is gone',
    before: {
      accounts: { alice: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      delegations: [
        ['alice', 'carol', coins(80)],
        ['bob', 'carol', coins(20)],
      ],
    },
    txs: (s) => [tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(80) })],
    after: {
      accounts: { alice: { balance: coins(1) - FEE.UNDELEGATE, nonce: 1 } },
      validators: { carol: { totalDelegated: coins(20) } },
      delegations: { 'alice>carol': null, 'bob>carol': { amount: coins(20), createdHeight: 0 } },
      unbonding: [
        { delegator: 'alice', validator: 'carol', amount: coins(80), creationHeight: 1, completionHeight: 5 },
      ],
    },
  },
  {
    name: 'carol EJECTED, alice has 40 coins delegated to her -> alice can still undelegate them',
    before: {
      accounts: { alice: coins(1) },
      validators: { carol: { stake: 0n, status: 'EJECTED' } },
      delegations: [['alice', 'carol', coins(40)]],
    },
    txs: (s) => [tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(40) })],
    after: {
      accounts: { alice: { balance: coins(1) - FEE.UNDELEGATE, nonce: 1 } },
      validators: { carol: { totalDelegated: 0n, status: 'EJECTED' } },
      delegations: { 'alice>carol': null },
      unbonding: [
        { delegator: 'alice', validator: 'carol', amount: coins(40), creationHeight: 1, completionHeight: 5 },
      ],
    },
  },
]);

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'alice has 80 coins delegated to carol -> UNDELEGATE of 0',
    before: { ...carolInactive, delegations: [['alice', 'carol', coins(80)]] },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: 0n }),
    message: 'amount must be a positive integer for UNDELEGATE, got 0',
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'nobody is a validator -> alice UNDELEGATEs 1 coin from nobody',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('nobody'), amount: coins(1) }),
    message: `unknown validator ${valAddr('nobody')}`,
  },
  {
    code: 'NO_DELEGATION',
    name: 'alice has no delegation to carol -> UNDELEGATE 1 coin',
    before: carolInactive,
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(1) }),
    message: `${acct('alice')} has no delegation to ${valAddr('carol')}`,
  },
  {
    code: 'NO_DELEGATION',
    name: 'bob (not alice) has 80 coins delegated to carol -> alice UNDELEGATE 1 coin',
    before: { ...carolInactive, delegations: [['bob', 'carol', coins(80)]] },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(1) }),
    message: `${acct('alice')} has no delegation to ${valAddr('carol')}`,
  },
  {
    code: 'INSUFFICIENT_DELEGATION',
    name: 'alice has 80 coins delegated to carol -> UNDELEGATE 80 coins + 1 wei',
    before: { ...carolInactive, delegations: [['alice', 'carol', coins(80)]] },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(80) + 1n }),
    message: 'undelegate 80000000000000000001 wei exceeds delegation 80000000000000000000 wei',
  },
];

failureTable('UNDELEGATE failures: each changes nothing', FAILURES);
