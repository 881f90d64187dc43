/**
 * The proposer schedule and slots (block/proposer.ts): active[(h + r) % n], slot outcomes, no
 * active validator.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activeValidators,
  BlockError,
  scheduledProposer,
  slotOutcome,
  type Validator,
} from '../../../../src/chain/index.js';
import { genesisState, key, TestChain } from '../../../fixtures.js';

const FOUR = ['val-0', 'val-1', 'val-2', 'val-3'];

describe('proposer schedule', () => {
  it('rotates round-0 proposers as active[height % n] in address order', () => {
    const chain = new TestChain({ validators: FOUR });
    chain.produceUntil(8);
    const sorted = FOUR.map((l) => key(l).validator).sort();
    for (const b of chain.blocks) assert.equal(b.header.proposerAddress, sorted[b.header.height % 4]);
  });

  it('gives round r of height h to active[(h + r) % n]', () => {
    const chain = new TestChain({ validators: FOUR });
    const sorted = FOUR.map((l) => key(l).validator).sort();
    chain.produce([], 2);
    assert.equal(chain.blocks[0]!.header.proposerAddress, sorted[(1 + 2) % 4]);
  });
});

describe('a chain with no active validator', () => {
  it('cannot produce a block (NO_ACTIVE_VALIDATORS)', () => {
    const s = genesisState();
    const validators = new Map([...s.validators].map(([a, v]) => [a, { ...v, status: 'INACTIVE' as const }]));
    assert.throws(
      () => scheduledProposer({ validators }, 1, 0),
      (e: unknown) => e instanceof BlockError && e.code === 'NO_ACTIVE_VALIDATORS',
    );
  });
});

describe('slotOutcome', () => {
  /** The naive rule: rounds 0..round-1 each make active[(h + r) % n] miss once. */
  function naive(n: number, height: number, round: number) {
    const missed = new Array<number>(n).fill(0);
    for (let r = 0; r < round; r++) missed[(height + r) % n]! += 1;
    return { missed, producer: (height + round) % n };
  }
  const active4 = activeValidators(genesisState({ validators: FOUR }));
  const active3 = activeValidators(genesisState({ validators: FOUR.slice(0, 3) }));
  const active1 = activeValidators(genesisState());

  const rows: {
    name: string;
    active: Validator[];
    height: number;
    round: number;
    missed: number[];
    producer: number;
  }[] = [
    {
      name: 'round 0: nobody misses',
      active: active4,
      height: 1,
      round: 0,
      missed: [0, 0, 0, 0],
      producer: 1,
    },
    {
      name: 'round 1: the round-0 proposer misses',
      active: active4,
      height: 1,
      round: 1,
      missed: [0, 1, 0, 0],
      producer: 2,
    },
    {
      // rounds 0..3 are proposers 1, 2, 3, 0: each misses once; round 4 is index 1 again.
      name: 'round n: everyone misses once, the round-0 proposer also produces',
      active: active4,
      height: 1,
      round: 4,
      missed: [1, 1, 1, 1],
      producer: 1,
    },
    {
      // rounds 0..5: 1 2 3 0 1 2 -> index 0: 1, 1: 2, 2: 2, 3: 1; round 6 -> (1+6) % 4 = 3.
      name: 'round n + 2',
      active: active4,
      height: 1,
      round: 6,
      missed: [1, 2, 2, 1],
      producer: 3,
    },
    {
      // rounds 0..6 at height 5, n = 3: (5+r) % 3 = 2 0 1 2 0 1 2; round 7 -> 12 % 3 = 0.
      name: 'n = 3, height 5, round 7',
      active: active3,
      height: 5,
      round: 7,
      missed: [2, 2, 3],
      producer: 0,
    },
    {
      // 10^9 full turns of 4 = 250_000_000 each; round 10^9 itself is (1 + 10^9) % 4 = 1.
      name: 'a huge round is arithmetic, not a loop',
      active: active4,
      height: 1,
      round: 1_000_000_001,
      missed: [250_000_000, 250_000_001, 250_000_000, 250_000_000],
      producer: 2,
    },
    {
      name: 'a single validator in round 3 misses 3 and produces 1',
      active: active1,
      height: 7,
      round: 3,
      missed: [3],
      producer: 0,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(slotOutcome(row.active, row.height, row.round), {
        missed: row.missed,
        producer: row.producer,
      });
    });
  }

  it('agrees with the naive round-by-round count for every n <= 5, height <= 12, round <= 3n + 2', () => {
    const genesis = genesisState({ validators: ['val-0', 'val-1', 'val-2', 'val-3', 'val-4'] });
    const all = activeValidators(genesis);
    for (let n = 1; n <= 5; n++)
      for (let height = 1; height <= 12; height++)
        for (let round = 0; round <= 3 * n + 2; round++)
          assert.deepEqual(
            slotOutcome(all.slice(0, n), height, round),
            naive(n, height, round),
            `n ${n} h ${height} r ${round}`,
          );
  });

  it('a real block in round n = 4 counts one miss for each validator and one produced slot', () => {
    const chain = new TestChain({ validators: FOUR });
    chain.produce([], 4);
    // Height 1, round 4: proposer index (1 + 4) % 4 = 1, which is val-0.
    assert.equal(chain.blocks[0]!.header.proposerAddress, key('val-0').validator);
    for (const [label, produced, missed] of [
      ['val-1', 0, 1],
      ['val-0', 1, 1],
      ['val-3', 0, 1],
      ['val-2', 0, 1],
    ] as const) {
      assert.equal(chain.validator(label)?.slotsProduced, produced, label);
      assert.equal(chain.validator(label)?.slotsMissed, missed, label);
    }
  });
});
