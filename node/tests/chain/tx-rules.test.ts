/**
 * Every transaction type, one table row per situation, with exact wei figures a reader can check
 * by hand. Each row is (before-state, transactions, expected after-state); the row runs through
 * a real block (buildBlock, then applyBlock re-checks it) on top of a hand-built state.
 *
 * Figures used throughout (devnet parameters, test genesis: unbonding_blocks 4, epoch_length 10):
 *   min gas price 1000 wei, so the minimum fee is base gas × 1000 wei:
 *     TRANSFER 21_000_000 · STAKE/UNSTAKE 40_000_000 · DELEGATE/UNDELEGATE 35_000_000
 *     UNJAIL 50_000_000 · UPDATE_VALIDATOR 30_000_000 · SUBMIT_RESULT 80_000_000 wei
 *   block reward 10 coins; min stake 100 coins; unjail fee 1000 coins (burned);
 *   jailed UNSTAKE penalty amount / 10 (burned); default commission 10%.
 * The only ACTIVE validator is the genesis validator `val-0` (stake 1000 coins, no account at
 * genesis): it proposes every block and receives reward + fees, so its balance after one block is
 * 10 coins + the fees of the block's successful transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BlockResult,
  BURN_ADDRESS,
  type ChainState,
  coins,
  computeRoot,
  minFee,
  TREASURY_ADDRESS,
  TX_TYPES,
  type Tx,
  type TxType,
  type Validator,
} from '../../src/chain/index.js';
import { expectedSupply, heldSupply, key, type TestChain, tx } from '../fixtures.js';
import { acct, build, chainOf, valAddr, type World } from '../world.js';

// ---------------------------------------------------------------------------------------------
// Building a before-state by hand (states are plain immutable values).

// ---------------------------------------------------------------------------------------------
// The expected after-state and the runner.

const FEE = {
  TRANSFER: 21_000_000n,
  STAKE: 40_000_000n,
  UNSTAKE: 40_000_000n,
  DELEGATE: 35_000_000n,
  UNDELEGATE: 35_000_000n,
  UNJAIL: 50_000_000n,
  UPDATE_VALIDATOR: 30_000_000n,
  SUBMIT_RESULT: 80_000_000n,
} as const satisfies Record<TxType, bigint>;

const REWARD = coins(10);

interface UnbondingRow {
  readonly delegator: string;
  readonly validator: string;
  readonly amount: bigint;
  readonly creationHeight: number;
  readonly completionHeight: number;
}

interface After {
  /** label -> exact balance and nonce; unlisted accounts are not checked. */
  readonly accounts?: Readonly<Record<string, { balance: bigint; nonce: number }>>;
  /** label -> the listed validator fields; null: no such validator. */
  readonly validators?: Readonly<Record<string, Partial<Validator> | null>>;
  /** "delegator>validator" (labels) -> amount and created height; null: no delegation. */
  readonly delegations?: Readonly<Record<string, { amount: bigint; createdHeight: number } | null>>;
  /** The whole unbonding queue (default: empty), delegator and validator as labels. */
  readonly unbonding?: readonly UnbondingRow[];
  /** totals.burned (default 0). */
  readonly burned?: bigint;
  /** totals.treasury (default 0). */
  readonly treasury?: bigint;
}

interface RuleCase {
  /** "<what the before-state is> -> <what the transaction does>" */
  readonly name: string;
  readonly before: World;
  readonly txs: (s: ChainState) => Tx[];
  readonly after: After;
  readonly also?: (chain: TestChain, r: BlockResult) => void;
}

function pick(v: Validator, fields: Partial<Validator>): Partial<Validator> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(fields)) out[k] = v[k as keyof Validator];
  return out as Partial<Validator>;
}

function runRuleCase(c: RuleCase): void {
  const chain = chainOf(c.before);
  const txs = c.txs(chain.state);
  const r = chain.produce(txs);
  const s = chain.state;

  assert.deepEqual(
    r.outcomes.map((o) => o.error),
    txs.map(() => null),
    'every transaction of the row executes',
  );
  assert.equal(
    r.fees,
    txs.reduce((sum, t) => sum + t.fee, 0n),
    'the fees collected are the transactions’ fees',
  );
  assert.equal(r.reward, REWARD);
  assert.equal(s.totals.minted, REWARD);
  assert.equal(s.totals.burned, c.after.burned ?? 0n, 'totals.burned');
  assert.equal(s.totals.treasury, c.after.treasury ?? 0n, 'totals.treasury');
  for (const reserved of [BURN_ADDRESS, TREASURY_ADDRESS])
    assert.equal(s.accounts.get(reserved), undefined, `no account at the reserved address ${reserved}`);
  assert.equal(heldSupply(s), expectedSupply(s), 'no wei created or lost');

  for (const [label, want] of Object.entries(c.after.accounts ?? {})) {
    const a = s.accounts.get(acct(label));
    assert.deepEqual({ balance: a?.balance ?? 0n, nonce: a?.nonce ?? 0 }, want, `account ${label}`);
  }
  for (const [label, want] of Object.entries(c.after.validators ?? {})) {
    const v = s.validators.get(valAddr(label));
    if (want === null) assert.equal(v, undefined, `validator ${label} should not exist`);
    else {
      assert.ok(v, `validator ${label} exists`);
      assert.deepEqual(pick(v, want), want, `validator ${label}`);
    }
  }
  for (const [pair, want] of Object.entries(c.after.delegations ?? {})) {
    const [delegator = '', validator = ''] = pair.split('>');
    const d = s.delegations.get(valAddr(validator))?.get(acct(delegator));
    if (want === null) assert.equal(d, undefined, `delegation ${pair} should be gone`);
    else {
      assert.ok(d, `delegation ${pair} exists`);
      assert.deepEqual({ amount: d.amount, createdHeight: d.createdHeight }, want, `delegation ${pair}`);
    }
  }
  assert.deepEqual(
    s.unbonding.map((u) => ({
      delegator: u.delegator,
      validator: u.validator,
      amount: u.amount,
      creationHeight: u.creationHeight,
      completionHeight: u.completionHeight,
    })),
    (c.after.unbonding ?? []).map((u) => ({
      ...u,
      delegator: acct(u.delegator),
      validator: valAddr(u.validator),
    })),
    'unbonding queue',
  );
  c.also?.(chain, r);
}

function table(title: string, cases: readonly RuleCase[]): void {
  describe(title, () => {
    for (const c of cases) it(c.name, () => runRuleCase(c));
  });
}

// ---------------------------------------------------------------------------------------------

describe('minimum fee', () => {
  it('is base gas × 1000 wei for every type (the FEE figures used below)', () => {
    const params = build({}).params;
    assert.equal(params.minGasPrice, 1000n);
    assert.deepEqual(Object.fromEntries(TX_TYPES.map((t) => [t, minFee(t, params.minGasPrice)])), FEE);
  });
});

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

const EMPTY_ROOT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'; // SHA-256 of ""
const TASK_A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const TASK_B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const HASH_A = 'aa'.repeat(32);
const HASH_B = '0123456789abcdef'.repeat(4);

table('SUBMIT_RESULT', [
  {
    name: 'alice 1 coin -> one result: fee paid, compute_root is the root of that one result',
    before: { accounts: { alice: coins(1) } },
    txs: (s) => [tx(s, 'alice', 'SUBMIT_RESULT', { payload: { taskId: TASK_A, resultHash: HASH_A } })],
    after: {
      accounts: {
        alice: { balance: coins(1) - FEE.SUBMIT_RESULT, nonce: 1 },
        'val-0': { balance: REWARD + FEE.SUBMIT_RESULT, nonce: 0 },
      },
    },
    also: (chain, r) => {
      const root = chain.blocks.at(-1)!.header.computeRoot;
      assert.notEqual(root, EMPTY_ROOT);
      assert.equal(
        root,
        computeRoot([
          { txHash: r.outcomes[0]!.txHash, taskId: TASK_A, resultHash: HASH_A, worker: acct('alice') },
        ]),
      );
    },
  },
  {
    name: 'alice and bob 1 coin each -> two results in one block: the root covers both, in block order',
    before: { accounts: { alice: coins(1), bob: coins(1) } },
    txs: (s) => [
      tx(s, 'bob', 'SUBMIT_RESULT', { payload: { taskId: TASK_B, resultHash: HASH_B } }),
      tx(s, 'alice', 'SUBMIT_RESULT', { payload: { taskId: TASK_A, resultHash: HASH_A } }),
    ],
    after: {
      accounts: {
        alice: { balance: coins(1) - FEE.SUBMIT_RESULT, nonce: 1 },
        bob: { balance: coins(1) - FEE.SUBMIT_RESULT, nonce: 1 },
        'val-0': { balance: REWARD + 160_000_000n, nonce: 0 },
      },
    },
    also: (chain, r) => {
      const root = chain.blocks.at(-1)!.header.computeRoot;
      const b = { txHash: r.outcomes[0]!.txHash, taskId: TASK_B, resultHash: HASH_B, worker: acct('bob') };
      const a = { txHash: r.outcomes[1]!.txHash, taskId: TASK_A, resultHash: HASH_A, worker: acct('alice') };
      assert.equal(root, computeRoot([b, a]));
      assert.notEqual(root, computeRoot([a, b]));
      assert.notEqual(root, EMPTY_ROOT);
    },
  },
]);

describe('compute_root without results', () => {
  it('is the empty Merkle root (SHA-256 of "") for a block with no SUBMIT_RESULT', () => {
    const chain = chainOf({ accounts: { alice: coins(1) } });
    chain.produce([tx(chain.state, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n })]);
    assert.equal(chain.blocks[0]!.header.computeRoot, EMPTY_ROOT);
    assert.equal(computeRoot([]), EMPTY_ROOT);
  });
});

describe('unbonding completion', () => {
  it('pays an UNSTAKE amount back to the operator at completion_height (1 + 4 = 5), not before', () => {
    const chain = chainOf({
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(300), status: 'INACTIVE' } },
    });
    chain.produce([tx(chain.state, 'carol', 'UNSTAKE', { amount: coins(100) })]);
    const afterFee = coins(1) - FEE.UNSTAKE;
    for (const h of [2, 3, 4]) {
      chain.produce();
      assert.equal(chain.state.height, h);
      assert.equal(chain.balance('carol'), afterFee, `nothing returned at height ${h}`);
      assert.equal(chain.state.unbonding.length, 1);
    }
    const r = chain.produce();
    assert.equal(chain.state.height, 5);
    assert.equal(chain.balance('carol'), afterFee + coins(100));
    assert.deepEqual(chain.state.unbonding, []);
    assert.deepEqual(
      r.released.map((u) => [u.delegator, u.amount]),
      [[acct('carol'), coins(100)]],
    );
    assert.equal(chain.validator('carol')?.stake, coins(200));
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
  });

  it('pays an UNDELEGATE amount back to the delegator at completion_height', () => {
    const chain = chainOf({
      accounts: { alice: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      delegations: [['alice', 'carol', coins(80)]],
    });
    chain.produce([tx(chain.state, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(30) })]);
    chain.produceUntil(4);
    assert.equal(chain.balance('alice'), coins(1) - FEE.UNDELEGATE);
    chain.produce();
    assert.equal(chain.balance('alice'), coins(31) - FEE.UNDELEGATE);
    assert.equal(chain.state.delegations.get(valAddr('carol'))?.get(acct('alice'))?.amount, coins(50));
  });
});

describe('a sequence through blocks', () => {
  it('STAKE registers, a later STAKE tops up, UPDATE_VALIDATOR renames: each block figured exactly', () => {
    const chain = chainOf({ accounts: { carol: coins(1000) } });
    chain.produce([tx(chain.state, 'carol', 'STAKE', { amount: coins(150), payload: { name: 'c1' } })]);
    assert.equal(chain.balance('carol'), coins(850) - FEE.STAKE);
    chain.produce([tx(chain.state, 'carol', 'STAKE', { amount: coins(50) })]);
    assert.equal(chain.balance('carol'), coins(800) - 2n * FEE.STAKE);
    chain.produce([tx(chain.state, 'carol', 'UPDATE_VALIDATOR', { payload: { name: 'c2' } })]);
    assert.equal(chain.balance('carol'), coins(800) - 2n * FEE.STAKE - FEE.UPDATE_VALIDATOR);
    assert.equal(chain.state.accounts.get(acct('carol'))?.nonce, 3);
    const v = chain.validator('carol');
    assert.deepEqual(
      { stake: v?.stake, name: v?.name, registeredHeight: v?.registeredHeight, status: v?.status },
      { stake: coins(200), name: 'c2', registeredHeight: 1, status: 'INACTIVE' },
    );
    assert.equal(chain.balance('val-0'), 3n * REWARD + 2n * FEE.STAKE + FEE.UPDATE_VALIDATOR);
  });
});
