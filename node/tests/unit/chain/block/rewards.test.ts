/**
 * Block rewards and their split, with exact wei figures that can be checked by hand.
 * Fixture parameters (tests/fixtures.ts): devnet with epoch_length 10, so epoch e is blocks
 * 10e+1 … 10e+10; block reward 10 coins = 10_000_000_000_000_000_000 wei, halved every
 * 1,000,000 blocks; min gas price 1000 wei, so the minimum fee is base_gas × 1000 wei
 * (TRANSFER 21_000_000 wei, DELEGATE and UNDELEGATE 35_000_000 wei); default commission 10%.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BlockResult,
  blockReward,
  type ChainState,
  coins,
  epochOfBlock,
  loadGenesis,
  NETWORK_PARAMS,
  splitReward,
} from '../../../../src/chain/index.js';
import {
  expectedSupply,
  genesisJson,
  genesisState,
  heldSupply,
  key,
  TestChain,
  tx,
} from '../../../fixtures.js';

/** 1 coin = 10^18 wei; fractional coins written out in wei below. */
const COIN = 10n ** 18n;

function rewardHistory(state: ChainState, label: string): Map<number, bigint> {
  return new Map(state.accounts.get(key(label).account)?.rewardHistory ?? []);
}

function balanceOf(state: ChainState, label: string): bigint {
  return state.accounts.get(key(label).account)?.balance ?? 0n;
}

function sumShares(shares: readonly { amount: bigint }[]): bigint {
  return shares.reduce((s, x) => s + x.amount, 0n);
}

describe('splitReward', () => {
  const R = 'coin1reward';
  const v = (commissionPpm: number, totalDelegated: bigint) => ({
    rewardAddress: R,
    commissionPpm,
    totalDelegated,
  });
  const del = (delegator: string, amount: bigint) => ({ delegator, amount });

  const rows: {
    name: string;
    commissionPpm: number;
    delegations: { delegator: string; amount: bigint }[];
    total: bigint;
    expected: [string, bigint][];
  }[] = [
    {
      name: 'no delegations: 100% to the reward address, commission ignored',
      commissionPpm: 100_000,
      delegations: [],
      total: 1000n,
      expected: [[R, 1000n]],
    },
    {
      name: 'one delegator, 10%: commission 100, delegator 900',
      commissionPpm: 100_000,
      delegations: [del('d1', 5n)],
      total: 1000n,
      expected: [
        [R, 100n],
        ['d1', 900n],
      ],
    },
    {
      // pool 900; 900*7/11 = 572.72 -> 572; 900*4/11 = 327.27 -> 327; 572 + 327 = 899: 1 wei dust.
      name: 'delegations 7:4, 10%: floors leave 1 wei of dust to the validator',
      commissionPpm: 100_000,
      delegations: [del('d1', 7n), del('d2', 4n)],
      total: 1000n,
      expected: [
        [R, 101n],
        ['d1', 572n],
        ['d2', 327n],
      ],
    },
    {
      // pool 100; each 100/3 = 33.3 -> 33; dust 1 (< 3 delegators).
      name: 'three equal delegators, 0% commission: 33 each, 1 wei dust',
      commissionPpm: 0,
      delegations: [del('d1', 1n), del('d2', 1n), del('d3', 1n)],
      total: 100n,
      expected: [
        [R, 1n],
        ['d1', 33n],
        ['d2', 33n],
        ['d3', 33n],
      ],
    },
    {
      // pool 11; 11*2/3 = 7.33 -> 7 and 11*1/3 = 3.67 -> 3; dust 11 - 7 - 3 = 1.
      name: 'delegations 2:1, 0% commission on 11 wei: 7 and 3, 1 wei dust',
      commissionPpm: 0,
      delegations: [del('d1', 2n), del('d2', 1n)],
      total: 11n,
      expected: [
        [R, 1n],
        ['d1', 7n],
        ['d2', 3n],
      ],
    },
    {
      name: '0% commission, 1:1, even total: validator gets 0',
      commissionPpm: 0,
      delegations: [del('d1', 3n), del('d2', 3n)],
      total: 10n,
      expected: [
        [R, 0n],
        ['d1', 5n],
        ['d2', 5n],
      ],
    },
    {
      name: '100% commission: delegators get 0',
      commissionPpm: 1_000_000,
      delegations: [del('d1', 1n), del('d2', 9n)],
      total: 777n,
      expected: [
        [R, 777n],
        ['d1', 0n],
        ['d2', 0n],
      ],
    },
    {
      // commission floor(999 * 0.333333) = floor(332.999667) = 332; pool 667 split 1:1 -> 333, 333; dust 1.
      name: 'commission is floored: 33.3333% of 999 is 332',
      commissionPpm: 333_333,
      delegations: [del('d1', 1n), del('d2', 1n)],
      total: 999n,
      expected: [
        [R, 333n],
        ['d1', 333n],
        ['d2', 333n],
      ],
    },
    {
      // One block of 10 coins at 10%: commission 1 coin, pool 9 coins;
      // 9e18 * 7/11 = 5_727_272_727_272_727_272.7 and 9e18 * 4/11 = 3_272_727_272_727_272_727.3.
      name: 'a real block reward, 10 coins, delegations 7 and 4 coins',
      commissionPpm: 100_000,
      delegations: [del('d1', coins(7)), del('d2', coins(4))],
      total: coins(10),
      expected: [
        [R, 1_000_000_000_000_000_001n],
        ['d1', 5_727_272_727_272_727_272n],
        ['d2', 3_272_727_272_727_272_727n],
      ],
    },
    {
      name: 'zero total: everyone gets 0',
      commissionPpm: 100_000,
      delegations: [del('d1', 1n)],
      total: 0n,
      expected: [
        [R, 0n],
        ['d1', 0n],
      ],
    },
  ];

  for (const row of rows) {
    it(row.name, () => {
      const totalDelegated = row.delegations.reduce((s, d) => s + d.amount, 0n);
      const shares = splitReward(v(row.commissionPpm, totalDelegated), row.delegations, row.total);
      assert.deepEqual(
        shares.map((s) => [s.address, s.amount]),
        row.expected,
      );
      assert.equal(sumShares(shares), row.total);
    });
  }

  it('always adds up to the total, and the dust is fewer wei than there are delegators', () => {
    // 500 deterministic pseudo-random cases (xorshift64), no dependency and the same every run.
    let seed = 0x9e3779b97f4a7c15n;
    const next = (bound: bigint): bigint => {
      seed ^= (seed << 13n) & 0xffffffffffffffffn;
      seed ^= seed >> 7n;
      seed ^= (seed << 17n) & 0xffffffffffffffffn;
      return seed % bound;
    };
    for (let c = 0; c < 500; c++) {
      const commissionPpm = Number(next(1_000_001n));
      const amounts = Array.from({ length: 1 + Number(next(8n)) }, () => 1n + next(10n ** 24n));
      const total = next(10n ** 22n);
      const delegations = amounts.map((amount, i) => ({ delegator: `d${i}`, amount }));
      const totalDelegated = amounts.reduce((s, a) => s + a, 0n);
      const shares = splitReward(v(commissionPpm, totalDelegated), delegations, total);
      const at = `case ${c}: ${commissionPpm} ppm of ${total} over ${amounts.join(',')}`;
      assert.equal(shares.length, amounts.length + 1, at);
      assert.equal(sumShares(shares), total, at);
      const commission = (total * BigInt(commissionPpm)) / 1_000_000n;
      const dust = shares[0]!.amount - commission;
      assert.ok(dust >= 0n && dust < BigInt(amounts.length), `${at}: dust ${dust}`);
      for (const [i, s] of shares.slice(1).entries())
        assert.equal(s.amount, ((total - commission) * amounts[i]!) / totalDelegated, at);
    }
  });
});

describe('block reward and halving', () => {
  const p = NETWORK_PARAMS.devnet;
  const rows: [number, bigint][] = [
    [1, 10n * COIN],
    [999_999, 10n * COIN],
    [1_000_000, 5n * COIN],
    [1_999_999, 5n * COIN],
    [2_000_000, 2_500_000_000_000_000_000n],
    [3_000_000, 1_250_000_000_000_000_000n],
    [4_000_000, 625_000_000_000_000_000n],
    // 10^19 < 2^64, so after 64 halvings nothing is left; 256 or more are 0 by rule.
    [64_000_000, 0n],
    [256_000_000, 0n],
  ];
  for (const [height, wei] of rows) {
    it(`blockReward(${height}) = ${wei} wei`, () => {
      assert.equal(blockReward(height, p), wei);
    });
  }

  it('halves in a real block: 999,999 pays 10 coins, 1,000,000 pays 5, and minted grows by each', () => {
    const s = genesisState();
    const chain = new TestChain({ ...s, height: 999_998 }, [], ['val-0']);
    const rows: [number, bigint, bigint][] = [
      // height, reward, totals.minted after it
      [999_999, 10n * COIN, 10n * COIN],
      [1_000_000, 5n * COIN, 15n * COIN],
      [1_000_001, 5n * COIN, 20n * COIN],
    ];
    for (const [height, reward, minted] of rows) {
      const before = chain.balance('val-0');
      const r = chain.produce();
      assert.equal(r.state.height, height);
      assert.equal(r.reward, reward);
      assert.equal(r.fees, 0n);
      assert.equal(chain.balance('val-0') - before, reward);
      assert.equal(r.state.totals.minted, minted);
    }
    // epoch_length 10: block 999,999 and 1,000,000 are epoch 99,999; 1,000,001 opens 100,000.
    assert.deepEqual(
      rewardHistory(chain.state, 'val-0'),
      new Map([
        [99_999, 15n * COIN],
        [100_000, 5n * COIN],
      ]),
    );
  });

  const boundaries: [number, bigint][] = [
    [1_000_000, 5n * COIN],
    [2_000_000, 2_500_000_000_000_000_000n],
    [3_000_000, 1_250_000_000_000_000_000n],
  ];
  for (const [height, reward] of boundaries) {
    it(`the block at height ${height}, applied on a state at ${height - 1}, mints ${reward} wei`, () => {
      const s = genesisState();
      const chain = new TestChain({ ...s, height: height - 1 }, [], ['val-0']);
      const r = chain.produce();
      assert.equal(r.state.height, height);
      assert.equal(r.reward, reward);
      assert.equal(r.state.totals.minted, reward);
      assert.equal(chain.balance('val-0'), reward);
      assert.deepEqual(
        rewardHistory(chain.state, 'val-0'),
        new Map([[Math.floor((height - 1) / 10), reward]]),
      );
    });
  }
});

describe('reward crediting', () => {
  it("pays reward + fees of successful transactions to the proposer's reward address", () => {
    const chain = new TestChain({ accounts: { alice: coins(1000) } });
    // A TRANSFER paying 50_000_000 wei (above the 21_000_000 minimum) and one that fails
    // (bob has nothing yet, it comes first): a failing transaction pays no fee.
    const r = chain.produce([
      tx(chain.state, 'bob', 'TRANSFER', { to: key('alice').account, amount: 1n }),
      tx(chain.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: coins(5), fee: 50_000_000n }),
    ]);
    assert.equal(r.outcomes[0]!.error?.code, 'INSUFFICIENT_BALANCE');
    assert.equal(r.outcomes[1]!.error, null);
    assert.equal(r.reward, 10n * COIN);
    assert.equal(r.fees, 50_000_000n);
    assert.equal(chain.balance('val-0'), 10_000_000_000_050_000_000n);
    assert.equal(chain.balance('alice'), 994_999_999_999_950_000_000n);
    assert.equal(chain.balance('bob'), 5n * COIN);
    // Fees move wei, they are not minted.
    assert.equal(chain.state.totals.minted, 10n * COIN);
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
  });

  it('credits the reward_address, not the operator, and follows UPDATE_VALIDATOR', () => {
    const json = genesisJson({ accounts: { 'val-0': coins(1) } });
    json.validators[0] = { ...json.validators[0]!, reward_address: key('carol').account };
    const loaded = loadGenesis(json);
    assert.ok(loaded.ok);
    const chain = new TestChain(loaded.genesis.state, [], ['val-0']);
    chain.produce();
    assert.equal(chain.balance('carol'), 10n * COIN);
    assert.equal(chain.balance('val-0'), 1n * COIN);
    // UPDATE_VALIDATOR (fee 30_000_000 wei, paid by the operator, earned back by carol in the same
    // block since the switch happens after the transaction and before the reward).
    chain.produce([
      tx(chain.state, 'val-0', 'UPDATE_VALIDATOR', { payload: { rewardAddress: key('dave').account } }),
    ]);
    assert.equal(chain.balance('val-0'), 999_999_999_970_000_000n);
    assert.equal(chain.balance('carol'), 10n * COIN);
    assert.equal(chain.balance('dave'), 10_000_000_000_030_000_000n);
  });

  it('mints exactly the block reward each block (totals.minted = 10 coins × height)', () => {
    const chain = new TestChain({ validators: ['val-0', 'val-1'], accounts: { alice: coins(1000) } });
    for (let h = 1; h <= 12; h++) {
      const txs =
        h === 3 ? [tx(chain.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n })] : [];
      const before = chain.state.totals.minted;
      const r: BlockResult = chain.produce(txs);
      assert.equal(r.state.totals.minted - before, 10n * COIN, `block ${h}`);
      assert.equal(r.state.totals.minted, BigInt(h) * 10n * COIN);
      assert.equal(heldSupply(r.state), expectedSupply(r.state));
    }
  });
});

describe('reward_history', () => {
  it('maps block h to epoch floor((h-1)/L)', () => {
    const rows: [number, number, number][] = [
      // height, epoch length, epoch
      [1, 10, 0],
      [9, 10, 0],
      [10, 10, 0],
      [11, 10, 1],
      [20, 10, 1],
      [21, 10, 2],
      [100, 100, 0],
      [101, 100, 1],
      [1_000_000, 100, 9_999],
    ];
    for (const [h, l, e] of rows) assert.equal(epochOfBlock(h, l), e, `height ${h}, L ${l}`);
  });

  it('records each block under its epoch: blocks 1-10 are epoch 0, 11-20 epoch 1, 21 epoch 2', () => {
    const chain = new TestChain();
    chain.produceUntil(21);
    assert.deepEqual(
      rewardHistory(chain.state, 'val-0'),
      new Map([
        [0, 100n * COIN],
        [1, 100n * COIN],
        [2, 10n * COIN],
      ]),
    );
    assert.equal(chain.balance('val-0'), 210n * COIN);
  });

  it('with epoch_length 100, block 100 is still epoch 0 and block 101 is epoch 1', () => {
    const chain = new TestChain({ params: { epoch_length: 100 } });
    chain.produceUntil(101);
    assert.deepEqual(
      rewardHistory(chain.state, 'val-0'),
      new Map([
        [0, 1000n * COIN],
        [1, 10n * COIN],
      ]),
    );
  });

  it('splits epoch 0 among four proposers by their round-0 slots (active[h % 4])', () => {
    const four = ['val-0', 'val-1', 'val-2', 'val-3'];
    const chain = new TestChain({ validators: four });
    // Address order of the fixture keys: val-1 < val-0 < val-3 < val-2 (indices 0..3).
    const sorted = four.map((l) => key(l).validator).sort();
    assert.deepEqual(
      sorted,
      ['val-1', 'val-0', 'val-3', 'val-2'].map((l) => key(l).validator),
    );
    chain.produceUntil(10);
    // h % 4 for h = 1..10: 1 2 3 0 1 2 3 0 1 2 -> index 0: {4, 8}, 1: {1, 5, 9}, 2: {2, 6, 10}, 3: {3, 7}.
    const expected: [string, bigint][] = [
      ['val-1', 20n * COIN],
      ['val-0', 30n * COIN],
      ['val-3', 30n * COIN],
      ['val-2', 20n * COIN],
    ];
    for (const [label, wei] of expected) {
      assert.deepEqual(rewardHistory(chain.state, label), new Map([[0, wei]]), label);
      assert.equal(chain.balance(label), wei, label);
    }
  });
});

describe('delegator rewards on a chain', () => {
  it('pays commission, pro-rata shares and dust per block, summed per epoch to the wei', () => {
    // val-0 and val-1 at 10% commission. Address order: val-1 < val-0, so val-1 proposes the even
    // heights and val-0 the odd ones. In block 2 (val-1's, so the DELEGATE fees go to val-1) alice
    // delegates 7 coins and bob 4 coins to val-0. In block 22 (val-1's) bob undelegates all 4.
    const chain = new TestChain({
      validators: ['val-0', 'val-1'],
      accounts: { alice: coins(1000), bob: coins(1000) },
    });
    const v0 = key('val-0').validator;
    chain.produce();
    const r2 = chain.produce([
      tx(chain.state, 'alice', 'DELEGATE', { to: v0, amount: coins(7) }),
      tx(chain.state, 'bob', 'DELEGATE', { to: v0, amount: coins(4) }),
    ]);
    assert.deepEqual(
      r2.outcomes.map((o) => o.error),
      [null, null],
    );
    assert.equal(chain.blocks[1]!.header.proposerAddress, key('val-1').validator);
    assert.equal(chain.validator('val-0')!.totalDelegated, coins(11));

    // Each later val-0 block (empty): total 10 coins, commission 1 coin, pool 9 coins;
    // alice floor(9e18 * 7/11) = 5_727_272_727_272_727_272, bob floor(9e18 * 4/11) = 3_272_727_272_727_272_727,
    // val-0 1 coin + 1 wei of dust.
    chain.produce();
    const r3 = chain.results.at(-1)!;
    assert.equal(chain.blocks.at(-1)!.header.proposerAddress, v0);
    assert.equal(
      r3.state.accounts.get(key('alice').account)!.balance,
      993_000_000_000_000_000_000n - 35_000_000n + 5_727_272_727_272_727_272n,
    );

    chain.produceUntil(21);
    chain.produce([tx(chain.state, 'bob', 'UNDELEGATE', { to: v0, amount: coins(4) })]);
    assert.equal(chain.blocks.at(-1)!.header.proposerAddress, key('val-1').validator);
    chain.produceUntil(30);

    // Epoch 0 (blocks 1-10): val-0 proposed 1 (before any delegation: all 10 coins), then 3, 5, 7, 9.
    // Epoch 1 (11-20): val-0 proposed 11, 13, 15, 17, 19.
    // Epoch 2 (21-30): 21 still split 7:4; after bob leaves in 22, alice alone gets the 9-coin pool
    // of 23, 25, 27, 29, and val-0 exactly 1 coin (no dust).
    const expected: [string, [number, bigint][]][] = [
      [
        'alice',
        [
          [0, 22_909_090_909_090_909_088n], // 4 × 5_727_272_727_272_727_272
          [1, 28_636_363_636_363_636_360n], // 5 × 5_727_272_727_272_727_272
          [2, 41_727_272_727_272_727_272n], // 5_727_272_727_272_727_272 + 4 × 9e18
        ],
      ],
      [
        'bob',
        [
          [0, 13_090_909_090_909_090_908n], // 4 × 3_272_727_272_727_272_727
          [1, 16_363_636_363_636_363_635n], // 5 × 3_272_727_272_727_272_727
          [2, 3_272_727_272_727_272_727n], // block 21 only
        ],
      ],
      [
        'val-0',
        [
          [0, 14_000_000_000_000_000_004n], // 10 coins + 4 × (1 coin + 1 wei)
          [1, 5_000_000_000_000_000_005n], // 5 × (1 coin + 1 wei)
          [2, 5_000_000_000_000_000_001n], // (1 coin + 1 wei) + 4 × 1 coin
        ],
      ],
      [
        'val-1',
        [
          [0, 50_000_000_000_070_000_000n], // 5 × 10 coins + 2 × 35_000_000 wei DELEGATE fees
          [1, 50n * COIN],
          [2, 50_000_000_000_035_000_000n], // + the UNDELEGATE fee
        ],
      ],
    ];
    for (const [label, rows] of expected)
      assert.deepEqual(rewardHistory(chain.state, label), new Map(rows), label);

    // Per epoch, everything credited is exactly the 100 coins minted plus the fees.
    for (const [epoch, fees] of [
      [0, 70_000_000n],
      [1, 0n],
      [2, 35_000_000n],
    ] as const) {
      let sum = 0n;
      for (const label of ['alice', 'bob', 'val-0', 'val-1'])
        sum += rewardHistory(chain.state, label).get(epoch) ?? 0n;
      assert.equal(sum, 100n * COIN + fees, `epoch ${epoch}`);
    }

    // Balances: alice 1000 - 7 coins - 35_000_000 wei fee + her rewards; bob's 4 coins came back
    // at block 26 (UNDELEGATE at 22 + unbonding_blocks 4).
    assert.equal(
      balanceOf(chain.state, 'alice'),
      993n * COIN -
        35_000_000n +
        22_909_090_909_090_909_088n +
        28_636_363_636_363_636_360n +
        41_727_272_727_272_727_272n,
    );
    assert.equal(
      balanceOf(chain.state, 'bob'),
      1000n * COIN -
        70_000_000n +
        13_090_909_090_909_090_908n +
        16_363_636_363_636_363_635n +
        3_272_727_272_727_272_727n,
    );
    assert.equal(chain.state.totals.minted, 300n * COIN);
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
  });
});
