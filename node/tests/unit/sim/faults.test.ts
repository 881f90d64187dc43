/**
 * Faults in the simulation: a validator crashed and started again from its in-memory disk (caught
 * up by the node's own block sync over the simulated network), paused and let go, partitioned
 * both ways and one way; schedules drawn from the seed. Each run is judged (no fork, liveness once
 * the network is whole) and each is the same run when its seed is run again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CLASSIC_KINDS,
  DRAWN_KINDS,
  drawByzantine,
  drawFaults,
  type SimFault,
} from '../../../src/sim/faults.js';
import { seededRandom } from '../../../src/sim/random.js';
import { type SimOptions, simulate } from '../../../src/sim/simulate.js';

const base = { validators: 4, heights: 12 } as const;

async function twice(o: SimOptions) {
  const first = await simulate(o);
  const again = await simulate(o);
  assert.equal(again.fingerprint, first.fingerprint, `seed ${o.seed} ran twice to other chains`);
  assert.equal(again.events, first.events);
  return first;
}

describe('simulated faults', () => {
  it('a validator crashed for 8 s starts again from its disk and catches up by block sync; the same seed is the same run', async () => {
    const faults: SimFault[] = [
      { atMs: 3000, kind: 'crash', node: 'validator-3' },
      { atMs: 11_000, kind: 'restart', node: 'validator-3' },
    ];
    const run = await twice({ ...base, seed: 'crash', faults });
    assert.deepEqual(run.failures, []);
    assert.equal(run.reached, true);
    assert.ok(run.requests > 0, 'block sync asked its peers');
    const heights = Object.values(run.heights);
    assert.ok(Math.min(...heights) >= 12, JSON.stringify(run.heights));
    // While it was down the other three went on (3 of 4 is a quorum): it had blocks to fetch.
    assert.ok(run.hashes['validator-3']!.length >= 12);
  });

  it('a paused validator runs on when let go; a minority partitioned both ways and one way rejoins', async () => {
    const faults: SimFault[] = [
      { atMs: 2000, kind: 'pause', node: 'validator-0' },
      { atMs: 6000, kind: 'unpause', node: 'validator-0' },
      { atMs: 8000, kind: 'partition', group: ['validator-1'], oneWay: false },
      { atMs: 12_000, kind: 'heal' },
      { atMs: 13_000, kind: 'partition', group: ['validator-2'], oneWay: true },
      { atMs: 17_000, kind: 'heal' },
    ];
    const run = await simulate({ ...base, seed: 'pause-partition', faults });
    assert.deepEqual(run.failures, []);
    assert.deepEqual(run.forks, []);
  });

  it('half the validators cut off: nobody decides while it lasts, and the whole network goes on after', async () => {
    const faults: SimFault[] = [
      { atMs: 4000, kind: 'partition', group: ['validator-0', 'validator-1'], oneWay: false },
      { atMs: 20_000, kind: 'heal' },
    ];
    const run = await simulate({ ...base, seed: 'halves', faults });
    assert.deepEqual(run.failures, []);
    // 2 of 4 is no quorum on either side: about 4 heights before the cut, the rest after the heal.
    assert.ok(run.virtualMs > 20_000, `${run.virtualMs}`);
  });

  it('schedules drawn from the seed: each seed judged and the same run twice', async () => {
    for (const seed of ['drawn-1', 'drawn-2', 'drawn-3']) {
      const run = await twice({
        ...base,
        seed,
        faults: { spanMs: 15_000, count: 3, maxLengthMs: 6000 },
      });
      assert.equal(run.faults.length, 6, 'three faults, each with its end');
      assert.deepEqual(run.failures, [], `seed ${seed}: ${run.failures.join('; ')}`);
    }
  });

  it('a network that cannot go on within the liveness bound fails the run, saying so', async () => {
    const faults: SimFault[] = [{ atMs: 2000, kind: 'crash', node: 'validator-0' }];
    // The heal starts validator-0 again; 1 ms is no time to reach the next heights.
    const run = await simulate({ ...base, seed: 'slow', faults, liveness: { heights: 3, withinMs: 1 } });
    assert.match(
      run.failures.join('\n'),
      /^liveness: 1 ms after the network was whole, not every node had height/m,
    );
  });

  it('a draw of every kind: each kind drawn, each fault with its end; the classic kinds by default', () => {
    const names = ['validator-0', 'validator-1', 'validator-2', 'validator-3'];
    const draw = { spanMs: 20_000, count: 60, maxLengthMs: 3000 };
    const all = drawFaults(seededRandom('kinds'), names, { ...draw, kinds: DRAWN_KINDS });
    const kinds = new Set(all.map((f) => f.kind));
    for (const k of ['crash', 'restart', 'pause', 'unpause', 'partition', 'heal', 'skew', 'links', 'disk'])
      assert.ok(kinds.has(k as SimFault['kind']), `${k} in ${[...kinds]}`);
    const starts = all.filter((f) => f.kind === 'links' && f.links.length > 0).length;
    const ends = all.filter((f) => f.kind === 'links' && f.links.length === 0).length;
    assert.equal(starts, ends, 'each link fault cleared');
    const classic = drawFaults(seededRandom('kinds'), names, draw);
    assert.deepEqual(drawFaults(seededRandom('kinds'), names, { ...draw, kinds: CLASSIC_KINDS }), classic);
    assert.ok(
      classic.every((f) => ['crash', 'restart', 'pause', 'unpause', 'partition', 'heal'].includes(f.kind)),
    );
  });

  it('a Byzantine validator drawn by the seed: in about half the seeds of 4 or more, one at most, the same for a seed; none below 4', () => {
    const seeds = Array.from({ length: 200 }, (_, i) => `liar-${i}`);
    const drawn = seeds.map((s) => drawByzantine(s, 5));
    assert.deepEqual(
      drawn,
      seeds.map((s) => drawByzantine(s, 5)),
      'the same seed draws the same',
    );
    const liars = drawn.filter((d) => Object.keys(d).length > 0);
    assert.ok(liars.length > 70 && liars.length < 130, `${liars.length} of 200 seeds drew a liar`);
    for (const d of liars) {
      assert.equal(Object.keys(d).length, 1);
      assert.match(Object.keys(d)[0]!, /^validator-[0-4]$/);
      assert.deepEqual(Object.values(d), ['equivocate']);
    }
    assert.equal(new Set(liars.map((d) => Object.keys(d)[0])).size, 5, 'any of the five may lie');
    assert.deepEqual(
      seeds.map((s) => drawByzantine(s, 3)),
      seeds.map(() => ({})),
      'one of 3 is a third',
    );
  });
});
