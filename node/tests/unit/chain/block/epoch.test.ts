/**
 * Epoch transitions, uptime, jailing and slashing, activation and deactivation (block/epoch.ts),
 * the guards that keep a chain from stopping itself, with exact wei figures. Fixture parameters (tests/fixtures.ts): devnet with epoch_length 10
 * (the transition runs at the end of blocks 10, 20, 30 …), activation_delay 5, unbonding_blocks 4,
 * min_stake 100 coins, unjail fee 1000 coins, min uptime 75%; genesis validators stake 1000 coins.
 * Minimum fees: UNSTAKE and STAKE 40_000_000 wei, DELEGATE and UNDELEGATE 35_000_000, UNJAIL 50_000_000.
 *
 * Address order of the fixture keys (the proposer rotation order):
 *   val-1 < val-0 < val-3 < val-2, and val-1 < val-0 < new-c < new-a < new-b.
 * A validator that is "down" never proposes: a height whose round-0 proposer is down is finalized
 * in the first round whose proposer is up, and the down proposers of the rounds before miss a slot.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activeValidators,
  type BlockResult,
  type ChainState,
  coins,
  epochTransition,
  StateDraft,
  scheduledProposer,
  type Tx,
  uptimePpm,
  type Validator,
} from '../../../../src/chain/index.js';
import { expectedSupply, genesisState, heldSupply, key, TestChain, tx } from '../../../fixtures.js';

const COIN = 10n ** 18n;
const FOUR = ['val-0', 'val-1', 'val-2', 'val-3'];

/** Produces one block with `txs` in the first round whose proposer is not down. */
function produceAround(chain: TestChain, down: readonly string[], txs: readonly Tx[] = []): BlockResult {
  const downSet = new Set(down.map((l) => key(l).validator));
  const height = chain.state.height + 1;
  for (let round = 0; round < 1000; round++) {
    if (!downSet.has(scheduledProposer(chain.state, height, round).address)) return chain.produce(txs, round);
  }
  throw new Error('every proposer is down');
}

/** Produces empty blocks up to and including `height`, routing around `down` validators. */
function produceAroundUntil(chain: TestChain, down: readonly string[], height: number): void {
  while (chain.state.height < height) produceAround(chain, down);
}

function val(chain: TestChain, label: string): Validator {
  const v = chain.validator(label);
  assert.ok(v, `no validator ${label}`);
  return v;
}

function activeLabels(state: ChainState, labels: readonly string[]): string[] {
  const active = new Set(activeValidators(state).map((v) => v.address));
  return labels.filter((l) => active.has(key(l).validator));
}

describe('fixture key order', () => {
  it('is val-1 < val-0 < val-3 < val-2 and val-1 < val-0 < new-c < new-a < new-b', () => {
    const order = (labels: string[]) =>
      labels
        .map((l) => [key(l).validator, l] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map((x) => x[1]);
    assert.deepEqual(order(FOUR), ['val-1', 'val-0', 'val-3', 'val-2']);
    assert.deepEqual(order(['val-0', 'val-1', 'new-a', 'new-b', 'new-c']), [
      'val-1',
      'val-0',
      'new-c',
      'new-a',
      'new-b',
    ]);
  });
});

describe('uptimePpm', () => {
  const rows: [number, number, number][] = [
    // produced, missed, ppm
    [0, 0, 1_000_000], // no slot: full uptime
    [5, 0, 1_000_000],
    [3, 1, 750_000], // exactly 75%: not below
    [2, 1, 666_666], // floored
    [4, 1, 800_000],
    [0, 2, 0],
    [749_999, 250_001, 749_999],
  ];
  for (const [produced, missed, ppm] of rows) {
    it(`${produced} produced, ${missed} missed -> ${ppm} ppm`, () => {
      assert.equal(uptimePpm({ slotsProduced: produced, slotsMissed: missed }), ppm);
    });
  }
});

describe('epochTransition on a crafted state (jail, slash, eject)', () => {
  // Six genesis validators; each row sets one validator's slots, stake and jail count, and one
  // healthy validator keeps the set from being emptied.
  const SIX = ['val-0', 'val-1', 'val-2', 'val-3', 'val-4', 'val-5'];
  const rows: {
    name: string;
    stake: bigint;
    jailCount: number;
    produced: number;
    missed: number;
    status: Validator['status'];
    slashed: bigint;
  }[] = [
    {
      name: 'no slots: full uptime, kept',
      stake: coins(1000),
      jailCount: 0,
      produced: 0,
      missed: 0,
      status: 'ACTIVE',
      slashed: 0n,
    },
    {
      name: 'exactly 75% (3 of 4): kept',
      stake: coins(1000),
      jailCount: 0,
      produced: 3,
      missed: 1,
      status: 'ACTIVE',
      slashed: 0n,
    },
    {
      name: '2 of 3 = 66.6%: 1st jail, 5%',
      stake: coins(1000),
      jailCount: 0,
      produced: 2,
      missed: 1,
      status: 'JAILED',
      slashed: coins(50),
    },
    {
      // 5% of 1000 coins + 19 wei = 50 coins + 0.95 wei, floored to 50 coins.
      name: '1st jail slash is floored',
      stake: coins(1000) + 19n,
      jailCount: 0,
      produced: 0,
      missed: 2,
      status: 'JAILED',
      slashed: coins(50),
    },
    {
      name: '2nd jail: 10% of 950 coins = 95 coins',
      stake: coins(950),
      jailCount: 1,
      produced: 0,
      missed: 2,
      status: 'JAILED',
      slashed: coins(95),
    },
    {
      name: '3rd jail: all 855 coins, ejected',
      stake: coins(855),
      jailCount: 2,
      produced: 1,
      missed: 3,
      status: 'EJECTED',
      slashed: coins(855),
    },
  ];

  for (const row of rows) {
    it(row.name, () => {
      const s = genesisState({ validators: SIX });
      const target = key('val-2').validator;
      const validators = new Map(s.validators);
      validators.set(target, {
        ...s.validators.get(target)!,
        stake: row.stake,
        jailCount: row.jailCount,
        slotsProduced: row.produced,
        slotsMissed: row.missed,
      });
      const d = new StateDraft({ ...s, height: 9, validators });
      const events = epochTransition(d, 10);
      const next = d.finish({ height: 10, hash: '', timestamp: s.lastTimestamp });
      const v = next.validators.get(target)!;
      assert.equal(v.status, row.status);
      assert.equal(v.stake, row.stake - row.slashed);
      assert.equal(v.jailCount, row.status === 'ACTIVE' ? row.jailCount : row.jailCount + 1);
      assert.equal(next.totals.burned, row.slashed);
      assert.equal(v.slotsProduced + v.slotsMissed, 0, 'counters reset');
      const expected =
        row.status === 'ACTIVE'
          ? []
          : [
              { kind: 'jailed', validator: target },
              { kind: 'slashed', validator: target, amount: row.slashed },
              ...(row.status === 'EJECTED' ? [{ kind: 'ejected', validator: target }] : []),
            ];
      assert.deepEqual(events, expected);
      for (const other of SIX.filter((l) => l !== 'val-2'))
        assert.equal(next.validators.get(key(other).validator)!.status, 'ACTIVE', other);
    });
  }
});

describe('jailing on a chain', () => {
  it('jails a validator that missed all its slots, slashing 5% and burning it', () => {
    const chain = new TestChain({ validators: FOUR });
    // val-2 is index 3: its round-0 slots in 1..10 are h % 4 = 3, i.e. 3 and 7; both are
    // finalized in round 1 by index (h + 1) % 4 = 0, val-1.
    produceAroundUntil(chain, ['val-2'], 9);
    assert.deepEqual([val(chain, 'val-2').slotsProduced, val(chain, 'val-2').slotsMissed], [0, 2]);
    // val-1: its own 4 and 8 plus 3 and 7.
    assert.deepEqual([val(chain, 'val-1').slotsProduced, val(chain, 'val-1').slotsMissed], [4, 0]);
    const r = produceAround(chain, ['val-2']);
    assert.equal(r.state.height, 10);
    const v2 = key('val-2').validator;
    assert.deepEqual(r.epochEvents, [
      { kind: 'jailed', validator: v2 },
      { kind: 'slashed', validator: v2, amount: coins(50) },
    ]);
    assert.equal(val(chain, 'val-2').status, 'JAILED');
    assert.equal(val(chain, 'val-2').jailCount, 1);
    assert.equal(val(chain, 'val-2').stake, coins(950));
    assert.equal(chain.state.totals.burned, coins(50));
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
    // The other three are untouched and the rotation now has three members.
    for (const label of ['val-0', 'val-1', 'val-3']) {
      assert.equal(val(chain, label).status, 'ACTIVE', label);
      assert.equal(val(chain, label).stake, coins(1000), label);
    }
    assert.deepEqual(activeLabels(chain.state, FOUR), ['val-0', 'val-1', 'val-3']);
    chain.produceUntil(13);
    assert.ok(chain.blocks.slice(10).every((b) => b.header.proposerAddress !== v2));
  });

  it('keeps a validator at 80% uptime and jails one at 60%', () => {
    // Two validators: val-1 proposes even heights, val-0 odd ones (1, 3, 5, 7, 9 in epoch 0).
    for (const [downAt, status, uptime] of [
      [[1], 'ACTIVE', 800_000], // 4 produced, 1 missed
      [[1, 3], 'JAILED', 600_000], // 3 produced, 2 missed
    ] as const) {
      const chain = new TestChain({ validators: ['val-0', 'val-1'] });
      while (chain.state.height < 9) {
        const h = chain.state.height + 1;
        produceAround(chain, (downAt as readonly number[]).includes(h) ? ['val-0'] : []);
      }
      assert.equal(uptimePpm(val(chain, 'val-0')), uptime);
      chain.produce();
      assert.equal(val(chain, 'val-0').status, status);
      assert.equal(val(chain, 'val-1').status, 'ACTIVE');
      assert.equal(chain.state.totals.burned, status === 'JAILED' ? coins(50) : 0n);
    }
  });

  it('2nd jailing slashes 10% after UNJAIL, 3rd slashes 100% and ejects', () => {
    const chain = new TestChain({ validators: FOUR, accounts: { 'val-2': coins(3000) } });
    const v2 = key('val-2').validator;
    const down = ['val-2'];
    produceAroundUntil(chain, down, 10);
    assert.equal(val(chain, 'val-2').stake, coins(950));

    // Block 11: UNJAIL (fee 50_000_000 wei + 1000 coins burned); val-2 is back from block 12.
    const u1 = produceAround(chain, down, [tx(chain.state, 'val-2', 'UNJAIL')]);
    assert.equal(u1.outcomes[0]!.error, null);
    assert.equal(val(chain, 'val-2').status, 'ACTIVE');
    assert.equal(val(chain, 'val-2').jailCount, 1);
    assert.equal(chain.state.totals.burned, coins(1050));
    // Blocks 12..20 with four active again: val-2 (index 3) was due at 15 and 19.
    produceAroundUntil(chain, down, 19);
    assert.deepEqual([val(chain, 'val-2').slotsProduced, val(chain, 'val-2').slotsMissed], [0, 2]);
    const r20 = produceAround(chain, down);
    assert.deepEqual(r20.epochEvents, [
      { kind: 'jailed', validator: v2 },
      { kind: 'slashed', validator: v2, amount: coins(95) },
    ]);
    assert.equal(val(chain, 'val-2').status, 'JAILED');
    assert.equal(val(chain, 'val-2').jailCount, 2);
    assert.equal(val(chain, 'val-2').stake, coins(855));
    assert.equal(chain.state.totals.burned, coins(1145)); // 50 + 1000 + 95

    // Block 21: UNJAIL again; blocks 22..30: due at 23 and 27, missed.
    produceAround(chain, down, [tx(chain.state, 'val-2', 'UNJAIL')]);
    const r30 = (() => {
      produceAroundUntil(chain, down, 29);
      return produceAround(chain, down);
    })();
    assert.deepEqual(r30.epochEvents, [
      { kind: 'jailed', validator: v2 },
      { kind: 'slashed', validator: v2, amount: coins(855) },
      { kind: 'ejected', validator: v2 },
    ]);
    const ejected = val(chain, 'val-2');
    assert.equal(ejected.status, 'EJECTED');
    assert.equal(ejected.jailCount, 3);
    assert.equal(ejected.stake, 0n);
    // Burned: slashes 50 + 95 + 855 coins and two unjail fees of 1000 coins.
    assert.equal(chain.state.totals.burned, coins(3000));
    // val-2's account paid two unjail fees and two transaction fees; it never proposed.
    assert.equal(chain.balance('val-2'), coins(1000) - 100_000_000n);
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));

    // Ejection is permanent: neither UNJAIL nor STAKE works any more.
    const r31 = produceAround(chain, down, [
      tx(chain.state, 'val-2', 'UNJAIL'),
      tx(chain.state, 'val-2', 'STAKE', { amount: coins(100) }),
    ]);
    assert.deepEqual(
      r31.outcomes.map((o) => o.error?.code),
      ['VALIDATOR_EJECTED', 'VALIDATOR_EJECTED'],
    );
    assert.equal(val(chain, 'val-2').status, 'EJECTED');
  });

  it('jails nobody when that would leave no active validator (a single validator at 50%)', () => {
    const chain = new TestChain();
    // Every block in round 1: the only validator misses round 0 and produces round 1.
    while (chain.state.height < 9) chain.produce([], 1);
    assert.equal(uptimePpm(val(chain, 'val-0')), 500_000);
    const r = chain.produce([], 1);
    assert.deepEqual(r.epochEvents, []);
    assert.equal(val(chain, 'val-0').status, 'ACTIVE');
    assert.equal(val(chain, 'val-0').jailCount, 0);
    assert.equal(val(chain, 'val-0').stake, coins(1000));
    assert.equal(chain.state.totals.burned, 0n);
    chain.produce();
    assert.equal(chain.state.height, 11);
  });

  it('jails nobody when every active validator is below 75% (two validators at 33%)', () => {
    const chain = new TestChain({ validators: ['val-0', 'val-1'] });
    // Round 2 with n = 2: both miss one slot each block, and index (h + 2) % 2 = h % 2 produces.
    // After block 9: val-1 (index 0) produced 2, 4, 6, 8: 4 of 13 slots; val-0 produced 5 of 14.
    while (chain.state.height < 9) chain.produce([], 2);
    assert.equal(uptimePpm(val(chain, 'val-1')), 307_692);
    assert.equal(uptimePpm(val(chain, 'val-0')), 357_142);
    const r = chain.produce([], 2);
    assert.deepEqual(r.epochEvents, []);
    assert.deepEqual(activeLabels(chain.state, ['val-0', 'val-1']), ['val-0', 'val-1']);
    assert.equal(chain.state.totals.burned, 0n);
  });

  it('does jail all but one when one validator stays above 75%', () => {
    const three = ['val-0', 'val-1', 'val-2'];
    const chain = new TestChain({ validators: three });
    produceAroundUntil(chain, ['val-0', 'val-2'], 10);
    assert.deepEqual(activeLabels(chain.state, three), ['val-1']);
    assert.equal(val(chain, 'val-0').status, 'JAILED');
    assert.equal(val(chain, 'val-2').status, 'JAILED');
    assert.equal(chain.state.totals.burned, coins(100));
    chain.produceUntil(12);
    assert.ok(chain.blocks.slice(10).every((b) => b.header.proposerAddress === key('val-1').validator));
  });
});

describe('activation and deactivation', () => {
  it('activates a STAKE at the first boundary at least activation_delay (5) blocks later', () => {
    const chain = new TestChain({
      validators: ['val-0', 'val-1'],
      accounts: { 'new-a': coins(1000), 'new-b': coins(1000) },
    });
    chain.knowKey('new-a');
    chain.knowKey('new-b');
    chain.produceUntil(4);
    // Block 5: new-a registers (10 - 5 = 5 >= 5: active after block 10).
    // Block 6: new-b registers (10 - 6 = 4 < 5: waits for block 20).
    const r5 = chain.produce([tx(chain.state, 'new-a', 'STAKE', { amount: coins(200) })]);
    assert.equal(r5.outcomes[0]!.error, null);
    chain.produce([tx(chain.state, 'new-b', 'STAKE', { amount: coins(200) })]);
    assert.equal(val(chain, 'new-a').registeredHeight, 5);
    assert.equal(val(chain, 'new-b').registeredHeight, 6);
    assert.equal(val(chain, 'new-a').status, 'INACTIVE');
    chain.produceUntil(9);
    assert.equal(val(chain, 'new-a').status, 'INACTIVE');

    const r10 = chain.produce();
    assert.deepEqual(r10.epochEvents, [{ kind: 'activated', validator: key('new-a').validator }]);
    assert.equal(val(chain, 'new-a').status, 'ACTIVE');
    assert.equal(val(chain, 'new-b').status, 'INACTIVE');

    // Rotation val-1, val-0, new-a: new-a proposes h % 3 = 2, i.e. 11, 14, 17, 20 in epoch 1.
    chain.produceUntil(19);
    const r20 = chain.produce();
    const byNewA = chain.blocks
      .filter((b) => b.header.proposerAddress === key('new-a').validator)
      .map((b) => b.header.height);
    assert.deepEqual(byNewA, [11, 14, 17, 20]);
    // 4 blocks × 10 coins, on top of 1000 - 200 coins - the 40_000_000 wei STAKE fee.
    assert.deepEqual(
      chain.state.accounts.get(key('new-a').account)!.rewardHistory,
      new Map([[1, 40n * COIN]]),
    );
    assert.equal(chain.balance('new-a'), 840n * COIN - 40_000_000n);

    assert.deepEqual(r20.epochEvents, [{ kind: 'activated', validator: key('new-b').validator }]);
    // Rotation val-1, val-0, new-a, new-b: new-b first proposes h % 4 = 3, at 23.
    chain.produceUntil(23);
    assert.equal(chain.blocks[22]!.header.proposerAddress, key('new-b').validator);
  });

  it('does not activate a validator with stake below min_stake after UNSTAKE', () => {
    const chain = new TestChain({ validators: ['val-0'], accounts: { 'new-a': coins(1000) } });
    chain.produce([tx(chain.state, 'new-a', 'STAKE', { amount: coins(150) })]);
    const s = chain.state;
    chain.produce([tx(s, 'new-a', 'UNSTAKE', { amount: coins(60) })]);
    assert.equal(val(chain, 'new-a').stake, coins(90));
    const r10 = (() => {
      chain.produceUntil(9);
      return chain.produce();
    })();
    assert.deepEqual(r10.epochEvents, []);
    assert.equal(val(chain, 'new-a').status, 'INACTIVE');
  });

  it('respects max_validators: highest stake first, ties by address, the rest wait', () => {
    const chain = new TestChain({
      validators: ['val-0', 'val-1'],
      params: { max_validators: 3 },
      accounts: { 'new-a': coins(1000), 'new-b': coins(1000), 'new-c': coins(1000) },
    });
    // All register in block 1; one seat is free. new-b and new-c (300 coins) beat new-a (200);
    // between them, new-c has the lower address.
    chain.produce([
      tx(chain.state, 'new-a', 'STAKE', { amount: coins(200) }),
      tx(chain.state, 'new-b', 'STAKE', { amount: coins(300) }),
      tx(chain.state, 'new-c', 'STAKE', { amount: coins(300) }),
    ]);
    chain.knowKey('new-c');
    chain.produceUntil(9);
    const r10 = chain.produce();
    assert.deepEqual(r10.epochEvents, [{ kind: 'activated', validator: key('new-c').validator }]);
    const labels = ['val-0', 'val-1', 'new-a', 'new-b', 'new-c'];
    assert.deepEqual(activeLabels(chain.state, labels), ['val-0', 'val-1', 'new-c']);
    chain.produceUntil(19);
    const r20 = chain.produce();
    assert.deepEqual(r20.epochEvents, []);
    assert.equal(val(chain, 'new-a').status, 'INACTIVE');
    assert.equal(val(chain, 'new-b').status, 'INACTIVE');
    assert.equal(activeValidators(chain.state).length, 3);
  });

  it('deactivates an ACTIVE validator whose stake fell below min_stake, and keeps one exactly at it', () => {
    const chain = new TestChain({
      validators: ['val-0', 'val-1', 'val-3'],
      accounts: { 'val-0': coins(1), 'val-1': coins(1) },
    });
    // Block 3: val-0 unstakes 950 coins (50 left, below 100); val-1 unstakes 900 (exactly 100 left).
    chain.produceUntil(2);
    const r3 = chain.produce([
      tx(chain.state, 'val-0', 'UNSTAKE', { amount: coins(950) }),
      tx(chain.state, 'val-1', 'UNSTAKE', { amount: coins(900) }),
    ]);
    assert.deepEqual(
      r3.outcomes.map((o) => o.error),
      [null, null],
    );
    assert.equal(val(chain, 'val-0').stake, coins(50));
    assert.equal(val(chain, 'val-1').stake, coins(100));
    // Still ACTIVE (and proposing) until the boundary.
    assert.equal(val(chain, 'val-0').status, 'ACTIVE');
    chain.produceUntil(9);
    const r10 = chain.produce();
    assert.deepEqual(r10.epochEvents, [{ kind: 'deactivated', validator: key('val-0').validator }]);
    assert.equal(val(chain, 'val-0').status, 'INACTIVE');
    assert.equal(val(chain, 'val-1').status, 'ACTIVE');
    assert.deepEqual(activeLabels(chain.state, ['val-0', 'val-1', 'val-3']), ['val-1', 'val-3']);
    chain.produceUntil(14);
    assert.ok(chain.blocks.slice(10).every((b) => b.header.proposerAddress !== key('val-0').validator));
  });
});

describe('the chain never deactivates its last validators', () => {
  it('keeps the only validator active after it unstakes below the minimum, and blocks go on', () => {
    const chain = new TestChain({
      validators: ['val-0'],
      accounts: { 'val-0': coins(10) },
      params: { epoch_length: 5 },
    });
    chain.produce([tx(chain.state, 'val-0', 'UNSTAKE', { amount: coins(950) })]);
    chain.produceUntil(5);
    assert.equal(chain.validator('val-0')!.status, 'ACTIVE');
    assert.equal(chain.validator('val-0')!.stake, coins(50));
    chain.produceUntil(7);
    assert.equal(chain.state.height, 7);
  });

  it('deactivates the lower-staked one when two fall below the minimum together', () => {
    const chain = new TestChain({
      validators: ['val-0', 'val-1'],
      accounts: { 'val-0': coins(10), 'val-1': coins(10) },
      params: { epoch_length: 4 },
    });
    chain.produce([
      tx(chain.state, 'val-0', 'UNSTAKE', { amount: coins(950) }),
      tx(chain.state, 'val-1', 'UNSTAKE', { amount: coins(960) }),
    ]);
    chain.produceUntil(4);
    assert.equal(chain.validator('val-1')!.status, 'INACTIVE', 'val-1 has 40 coins, the least');
    assert.equal(chain.validator('val-0')!.status, 'ACTIVE', 'val-0 keeps the chain going with 50 coins');
    const events = chain.results[3]!.epochEvents;
    assert.deepEqual(
      events.filter((e) => e.kind === 'deactivated').map((e) => e.validator),
      [chain.validator('val-1')!.address],
    );
  });
});
