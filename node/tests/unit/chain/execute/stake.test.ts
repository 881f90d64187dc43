/**
 * STAKE (chain/execute/stake.ts): one table row per situation, then one per way it fails
 * (ruleTable.ts, failureTable.ts).
 */
import { BURN_ADDRESS, coins } from '../../../../src/chain/index.js';
import { key, tx } from '../../../fixtures.js';
import { acct, valAddr } from '../../../world.js';
import { carolEjected, type ErrorCase, failureTable, MIN_STAKE } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('STAKE', [
  {
    name: 'carol 1000 coins, no validator -> STAKE of exactly the minimum registers an INACTIVE validator',
    before: { accounts: { carol: coins(1000) } },
    txs: (s) => [tx(s, 'carol', 'STAKE', { amount: coins(100) })],
    after: {
      accounts: {
        carol: { balance: coins(900) - FEE.STAKE, nonce: 1 },
        'val-0': { balance: REWARD + FEE.STAKE, nonce: 0 },
      },
      validators: {
        carol: {
          address: valAddr('carol'),
          pubKey: key('carol').pubKey,
          operator: acct('carol'),
          rewardAddress: acct('carol'),
          name: '',
          commissionPpm: 100_000,
          stake: coins(100),
          totalDelegated: 0n,
          status: 'INACTIVE',
          jailCount: 0,
          registeredHeight: 1,
          slotsProduced: 0,
          slotsMissed: 0,
        },
      },
    },
  },
  {
    name: 'carol 1000 coins, no validator -> STAKE 250 coins with name, commission 0.25 and reward address',
    before: { accounts: { carol: coins(1000) } },
    txs: (s) => [
      tx(s, 'carol', 'STAKE', {
        amount: coins(250),
        payload: { name: 'carol-node', commissionPpm: 250_000, rewardAddress: acct('dave') },
      }),
    ],
    after: {
      accounts: {
        carol: { balance: coins(750) - FEE.STAKE, nonce: 1 },
        dave: { balance: 0n, nonce: 0 },
      },
      validators: {
        carol: {
          operator: acct('carol'),
          rewardAddress: acct('dave'),
          name: 'carol-node',
          commissionPpm: 250_000,
          stake: coins(250),
          status: 'INACTIVE',
          registeredHeight: 1,
        },
      },
    },
  },
  {
    name: 'carol INACTIVE with 150 coins -> top-up STAKE of 1 wei (below the minimum is fine for a top-up)',
    before: {
      accounts: { carol: coins(10) },
      validators: { carol: { stake: coins(150), status: 'INACTIVE' } },
    },
    txs: (s) => [tx(s, 'carol', 'STAKE', { amount: 1n })],
    after: {
      accounts: { carol: { balance: coins(10) - 1n - FEE.STAKE, nonce: 1 } },
      validators: {
        carol: {
          stake: coins(150) + 1n,
          name: 'carol',
          commissionPpm: 100_000,
          rewardAddress: acct('carol'),
          status: 'INACTIVE',
          registeredHeight: 0,
        },
      },
    },
  },
  {
    name: 'carol INACTIVE with 150 coins -> top-up of 50 coins whose payload changes name, commission, reward address',
    before: {
      accounts: { carol: coins(100) },
      validators: { carol: { stake: coins(150), status: 'INACTIVE' } },
    },
    txs: (s) => [
      tx(s, 'carol', 'STAKE', {
        amount: coins(50),
        payload: { name: 'renamed', commissionPpm: 50_000, rewardAddress: acct('dave') },
      }),
    ],
    after: {
      accounts: { carol: { balance: coins(50) - FEE.STAKE, nonce: 1 } },
      validators: {
        carol: {
          stake: coins(200),
          name: 'renamed',
          commissionPpm: 50_000,
          rewardAddress: acct('dave'),
          status: 'INACTIVE',
          registeredHeight: 0,
        },
      },
    },
  },
  {
    name: 'carol JAILED with 95 coins -> top-up of 5 coins: stake 100 coins, still JAILED',
    before: { accounts: { carol: coins(10) }, validators: { carol: { stake: coins(95), status: 'JAILED' } } },
    txs: (s) => [tx(s, 'carol', 'STAKE', { amount: coins(5) })],
    after: {
      accounts: { carol: { balance: coins(5) - FEE.STAKE, nonce: 1 } },
      validators: { carol: { stake: coins(100), status: 'JAILED', jailCount: 1 } },
    },
  },
]);

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'carol 1000 coins -> STAKE of 0',
    before: { accounts: { carol: coins(1000) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: 0n }),
    message: 'amount must be a positive integer for STAKE, got 0',
  },
  {
    code: 'BELOW_MIN_STAKE',
    name: 'carol 1000 coins, no validator -> first STAKE of 100 coins - 1 wei',
    before: { accounts: { carol: coins(1000) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(100) - 1n }),
    message: `stake 99999999999999999999 wei is below the minimum stake ${MIN_STAKE} wei`,
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> carol STAKEs 500 coins again',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(500) }),
    message: 'was ejected and cannot stake again',
  },
  {
    code: 'INVALID_COMMISSION',
    name: 'carol 1000 coins -> STAKE 100 coins with commission_rate 1.5',
    before: { accounts: { carol: coins(1000) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(100), payload: { commissionPpm: 1_500_000 } }),
    message: 'commission_rate must be between 0 and 1, got 1.5',
  },
  {
    code: 'INVALID_PAYLOAD',
    name: 'alice 1000 coins -> STAKE with the burn address as reward_address',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) =>
      tx(s, 'alice', 'STAKE', { amount: BigInt(MIN_STAKE), payload: { rewardAddress: BURN_ADDRESS } }),
    message: `reward_address ${BURN_ADDRESS} is a reserved address (burn or treasury)`,
  },
];

failureTable('STAKE failures: each changes nothing', FAILURES);
