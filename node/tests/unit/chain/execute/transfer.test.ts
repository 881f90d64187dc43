/**
 * TRANSFER (chain/execute/transfer.ts): one table row per situation, then one per way it fails
 * (ruleTable.ts, failureTable.ts).
 */
import { BURN_ADDRESS, coins, TREASURY_ADDRESS } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { acct } from '../../../world.js';
import { type ErrorCase, failureTable } from './failureTable.js';
import { FEE, REWARD, table } from './ruleTable.js';

table('TRANSFER', [
  {
    name: 'alice 1000 coins, bob nothing -> alice sends bob 5 coins',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(5) })],
    after: {
      accounts: {
        alice: { balance: coins(1000) - coins(5) - FEE.TRANSFER, nonce: 1 },
        bob: { balance: coins(5), nonce: 0 },
        'val-0': { balance: REWARD + FEE.TRANSFER, nonce: 0 },
      },
    },
  },
  {
    name: 'alice 1 coin -> sends everything the fee leaves: balance reaches exactly 0',
    before: { accounts: { alice: coins(1) } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(1) - FEE.TRANSFER })],
    after: {
      accounts: {
        alice: { balance: 0n, nonce: 1 },
        bob: { balance: 999_999_999_979_000_000n, nonce: 0 },
        'val-0': { balance: REWARD + FEE.TRANSFER, nonce: 0 },
      },
    },
  },
  {
    name: 'alice 1000 coins, bob 7 wei -> 1 wei, with a fee of 1 coin above the minimum',
    before: { accounts: { alice: coins(1000), bob: 7n } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n, fee: coins(1) })],
    after: {
      accounts: {
        alice: { balance: coins(1000) - 1n - coins(1), nonce: 1 },
        bob: { balance: 8n, nonce: 0 },
        'val-0': { balance: REWARD + coins(1), nonce: 0 },
      },
    },
  },
  {
    name: 'alice 1000 coins -> sends 3 coins to herself: only the fee leaves',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: acct('alice'), amount: coins(3) })],
    after: { accounts: { alice: { balance: coins(1000) - FEE.TRANSFER, nonce: 1 } } },
  },
  {
    name: 'alice 1000 coins -> two transfers in one block, nonces 0 and 1, with a memo',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [
      tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(1), payload: { memo: 'first' } }),
      tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(2), nonce: 1 }),
    ],
    after: {
      accounts: {
        alice: { balance: coins(1000) - coins(3) - 2n * FEE.TRANSFER, nonce: 2 },
        bob: { balance: coins(3), nonce: 0 },
        'val-0': { balance: REWARD + 42_000_000n, nonce: 0 },
      },
    },
  },
  {
    name: 'alice 1000 coins -> 7 coins + 3 wei to the burn address: credited to nobody, total_burned grows',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: BURN_ADDRESS, amount: coins(7) + 3n })],
    after: {
      accounts: {
        alice: { balance: coins(1000) - coins(7) - 3n - FEE.TRANSFER, nonce: 1 },
        'val-0': { balance: REWARD + FEE.TRANSFER, nonce: 0 },
      },
      burned: coins(7) + 3n,
    },
  },
  {
    name: 'alice 1000 coins -> 2 coins + 1 wei to the treasury address: the treasury grows, no account',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: TREASURY_ADDRESS, amount: coins(2) + 1n })],
    after: {
      accounts: {
        alice: { balance: coins(1000) - coins(2) - 1n - FEE.TRANSFER, nonce: 1 },
        'val-0': { balance: REWARD + FEE.TRANSFER, nonce: 0 },
      },
      treasury: coins(2) + 1n,
    },
  },
  {
    name: 'alice 1000 coins -> burn 1 wei, treasury 2 wei, bob 3 wei in one block',
    before: { accounts: { alice: coins(1000) } },
    txs: (s) => [
      tx(s, 'alice', 'TRANSFER', { to: BURN_ADDRESS, amount: 1n }),
      tx(s, 'alice', 'TRANSFER', { to: TREASURY_ADDRESS, amount: 2n, nonce: 1 }),
      tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 3n, nonce: 2 }),
    ],
    after: {
      accounts: {
        alice: { balance: coins(1000) - 6n - 3n * FEE.TRANSFER, nonce: 3 },
        bob: { balance: 3n, nonce: 0 },
      },
      burned: 1n,
      treasury: 2n,
    },
  },
  {
    name: 'alice nonce 7 -> her transfer with nonce 7 executes and the nonce becomes 8',
    before: { accounts: { alice: coins(10) }, nonces: { alice: 7 } },
    txs: (s) => [tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 10n })],
    after: {
      accounts: {
        alice: { balance: coins(10) - 10n - FEE.TRANSFER, nonce: 8 },
        bob: { balance: 10n, nonce: 0 },
      },
    },
  },
]);

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'INVALID_AMOUNT',
    name: 'alice 1000 coins -> TRANSFER of 0',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 0n }),
    message: 'amount must be a positive integer for TRANSFER, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'mallory no account -> TRANSFER of 0: the rule is checked before the balance',
    before: {},
    sender: 'mallory',
    tx: (s) => tx(s, 'mallory', 'TRANSFER', { to: acct('bob'), amount: 0n }),
    message: 'amount must be a positive integer for TRANSFER, got 0',
  },
];

failureTable('TRANSFER failures: each changes nothing', FAILURES);
