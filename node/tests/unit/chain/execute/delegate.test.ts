/**
 * DELEGATE (chain/execute/delegate.ts): one table row per situation, then one per way it fails
 * (ruleTable.ts, failureTable.ts).
 */

import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { valAddr } from '../../../world.js';
import { carolEjected, carolInactive, type ErrorCase, failureTable } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('DELEGATE', [
  {
    name: 'alice 1000 coins, carol INACTIVE with 200 coins -> alice delegates 50 coins to carol',
    before: {
      accounts: { alice: coins(1000) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: coins(50) })],
    after: {
      accounts: {
        alice: { balance: coins(950) - FEE.DELEGATE, nonce: 1 },
        'val-0': { balance: REWARD + FEE.DELEGATE, nonce: 0 },
      },
      validators: { carol: { stake: coins(200), totalDelegated: coins(50) } },
      delegations: { 'alice>carol': { amount: coins(50), createdHeight: 1 } },
    },
  },
  {
    name: 'alice has 30 coins delegated to carol since height 0 -> delegates 20 more: 50, created height stays 0',
    before: {
      accounts: { alice: coins(100) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      delegations: [['alice', 'carol', coins(30)]],
    },
    txs: (s) => [tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: coins(20) })],
    after: {
      accounts: { alice: { balance: coins(80) - FEE.DELEGATE, nonce: 1 } },
      validators: { carol: { totalDelegated: coins(50) } },
      delegations: { 'alice>carol': { amount: coins(50), createdHeight: 0 } },
    },
  },
  {
    name: 'bob has 30 coins delegated to carol -> alice delegates 1 wei: two delegations, total 30 coins + 1 wei',
    before: {
      accounts: { alice: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      delegations: [['bob', 'carol', coins(30)]],
    },
    txs: (s) => [tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: 1n })],
    after: {
      accounts: { alice: { balance: coins(1) - 1n - FEE.DELEGATE, nonce: 1 } },
      validators: { carol: { totalDelegated: coins(30) + 1n } },
      delegations: {
        'alice>carol': { amount: 1n, createdHeight: 1 },
        'bob>carol': { amount: coins(30), createdHeight: 0 },
      },
    },
  },
  {
    name: 'carol JAILED -> alice may still delegate 10 coins to her',
    before: {
      accounts: { alice: coins(100) },
      validators: { carol: { stake: coins(95), status: 'JAILED' } },
    },
    txs: (s) => [tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: coins(10) })],
    after: {
      accounts: { alice: { balance: coins(90) - FEE.DELEGATE, nonce: 1 } },
      validators: { carol: { stake: coins(95), totalDelegated: coins(10), status: 'JAILED' } },
      delegations: { 'alice>carol': { amount: coins(10), createdHeight: 1 } },
    },
  },
  {
    // total = 10 coins + 35_000_000 wei; commission 10% = 1 coin + 3_500_000 wei to val-0;
    // the rest, 9 coins + 31_500_000 wei, to alice, the only delegator.
    name: 'alice delegates 50 coins to the proposer val-0 -> she shares this very block’s reward + fee',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [tx(s, 'alice', 'DELEGATE', { to: valAddr('val-0'), amount: coins(50) })],
    after: {
      accounts: {
        alice: { balance: coins(1000) - coins(50) - FEE.DELEGATE + coins(9) + 31_500_000n, nonce: 1 },
        'val-0': { balance: coins(1) + 3_500_000n, nonce: 0 },
      },
      validators: { 'val-0': { stake: coins(1000), totalDelegated: coins(50) } },
      delegations: { 'alice>val-0': { amount: coins(50), createdHeight: 1 } },
    },
  },
]);

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'alice -> DELEGATE of 0 to carol',
    before: carolInactive,
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: 0n }),
    message: 'amount must be a positive integer for DELEGATE, got 0',
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'nobody is a validator -> alice DELEGATEs 1 coin to nobody',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('nobody'), amount: coins(1) }),
    message: `unknown validator ${valAddr('nobody')}`,
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> alice DELEGATEs 1 coin to her',
    before: carolEjected,
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: coins(1) }),
    message: `validator ${valAddr('carol')} was ejected and takes no delegations`,
  },
];

failureTable('DELEGATE failures: each changes nothing', FAILURES);
