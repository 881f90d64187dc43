/** UNSTAKE (chain/execute/unstake.ts): one table row per situation; figures and runner in ruleTable.ts. */
import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
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
