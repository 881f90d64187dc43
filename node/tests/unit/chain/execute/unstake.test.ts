/**
 * UNSTAKE (chain/execute/unstake.ts): one table row per situation, then one per way it fails
 * (ruleTable.ts, failureTable.ts).
 */

import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { valAddr } from '../../../world.js';
import { carolEjected, carolInactive, carolJailed, type ErrorCase, failureTable } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('UNSTAKE', [
  {
    name: 'carol INACTIVE with 300 coins -> UNSTAKE 100 coins: stake 200, 100 coins unbond until height 1 + 4',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(300), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'carol', 'UNSTAKE', { amount: coins(100) })],
    after: {
      accounts: {
        carol: { balance: coins(1) - FEE.UNSTAKE, nonce: 1 },
        'val-0': { balance: REWARD + FEE.UNSTAKE, nonce: 0 },
      },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      unbonding: [
        {
          delegator: 'carol',
          validator: 'carol',
          amount: coins(100),
          creationHeight: 1,
          completionHeight: 5,
        },
      ],
    },
  },
  {
    name: 'carol INACTIVE with 300 coins -> UNSTAKE all 300 coins: stake 0, the validator remains',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(300), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'carol', 'UNSTAKE', { amount: coins(300) })],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UNSTAKE, nonce: 1 } },
      validators: { carol: { stake: 0n, status: 'INACTIVE' } },
      unbonding: [
        {
          delegator: 'carol',
          validator: 'carol',
          amount: coins(300),
          creationHeight: 1,
          completionHeight: 5,
        },
      ],
    },
  },
  {
    name: 'carol JAILED with 1000 coins -> UNSTAKE 100 coins costs 10% more: stake 890, 10 coins burned',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(1000), status: 'JAILED' } },
    },
    txs: (s) => [tx(s, 'carol', 'UNSTAKE', { amount: coins(100) })],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UNSTAKE, nonce: 1 } },
      validators: { carol: { stake: coins(890), status: 'JAILED' } },
      burned: coins(10),
      unbonding: [
        {
          delegator: 'carol',
          validator: 'carol',
          amount: coins(100),
          creationHeight: 1,
          completionHeight: 5,
        },
      ],
    },
  },
  {
    name: 'carol JAILED with 1000 coins -> UNSTAKE 1_234_567 wei: penalty 123_456 wei (rounded down)',
    before: {
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(1000), status: 'JAILED' } },
    },
    txs: (s) => [tx(s, 'carol', 'UNSTAKE', { amount: 1_234_567n })],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UNSTAKE, nonce: 1 } },
      validators: { carol: { stake: coins(1000) - 1_234_567n - 123_456n } },
      burned: 123_456n,
      unbonding: [
        {
          delegator: 'carol',
          validator: 'carol',
          amount: 1_234_567n,
          creationHeight: 1,
          completionHeight: 5,
        },
      ],
    },
  },
  {
    name: 'carol JAILED with 110 coins -> UNSTAKE 100 coins: amount + penalty is exactly the stake, stake 0',
    before: { accounts: { carol: coins(1) }, validators: { carol: { stake: coins(110), status: 'JAILED' } } },
    txs: (s) => [tx(s, 'carol', 'UNSTAKE', { amount: coins(100) })],
    after: {
      accounts: { carol: { balance: coins(1) - FEE.UNSTAKE, nonce: 1 } },
      validators: { carol: { stake: 0n, status: 'JAILED' } },
      burned: coins(10),
      unbonding: [
        {
          delegator: 'carol',
          validator: 'carol',
          amount: coins(100),
          creationHeight: 1,
          completionHeight: 5,
        },
      ],
    },
  },
  {
    name: 'val-0 ACTIVE with 1000 coins and 1 coin -> UNSTAKE 100 coins: no penalty; as proposer it gets its fee back',
    before: { accounts: { 'val-0': coins(1) } },
    txs: (s) => [tx(s, 'val-0', 'UNSTAKE', { amount: coins(100) })],
    after: {
      // 1 coin - fee + (reward + fee) = 11 coins
      accounts: { 'val-0': { balance: coins(11), nonce: 1 } },
      validators: { 'val-0': { stake: coins(900), status: 'ACTIVE' } },
      unbonding: [
        {
          delegator: 'val-0',
          validator: 'val-0',
          amount: coins(100),
          creationHeight: 1,
          completionHeight: 5,
        },
      ],
    },
  },
]);

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'carol INACTIVE -> UNSTAKE of 0',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: 0n }),
    message: 'amount must be a positive integer for UNSTAKE, got 0',
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'alice has no validator -> UNSTAKE 1 coin',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNSTAKE', { amount: coins(1) }),
    message: `unknown validator ${valAddr('alice')}: this key has not sent STAKE`,
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> UNSTAKE 1 wei',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: 1n }),
    message: 'was ejected after its third jailing and cannot act again',
  },
  {
    code: 'INSUFFICIENT_STAKE',
    name: 'carol INACTIVE with 200 coins -> UNSTAKE 200 coins + 1 wei',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: coins(200) + 1n }),
    message: 'unstake 200000000000000000001 wei exceeds stake 200000000000000000000 wei',
  },
  {
    code: 'INSUFFICIENT_STAKE',
    name: 'carol JAILED with 1000 coins -> UNSTAKE 950 coins: 950 + 95 penalty > 1000',
    before: carolJailed,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: coins(950) }),
    message:
      'unstake 950000000000000000000 wei plus the jailed penalty 95000000000000000000 wei exceeds stake 1000000000000000000000 wei',
  },
  {
    code: 'INSUFFICIENT_STAKE',
    name: 'carol JAILED with 110 coins -> UNSTAKE 100 coins + 1 wei: 1 wei over with the 10-coin penalty',
    before: {
      accounts: { carol: coins(10) },
      validators: { carol: { stake: coins(110), status: 'JAILED' } },
    },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: coins(100) + 1n }),
    message: 'unstake 100000000000000000001 wei plus the jailed penalty 10000000000000000000 wei',
  },
];

failureTable('UNSTAKE failures: each changes nothing', FAILURES);
