import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../src/sim/random.js';

const draws = (r: ReturnType<typeof seededRandom>, n = 50) => Array.from({ length: n }, () => r.next());

describe('seededRandom', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    assert.deepEqual(draws(seededRandom('s1')), draws(seededRandom('s1')));
    assert.notDeepEqual(draws(seededRandom('s1')), draws(seededRandom('s2')));
  });

  it('draws in [0, 1), integers in [0, n), and spreads them', () => {
    const r = seededRandom('spread');
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const x = r.next();
      assert.ok(x >= 0 && x < 1, `${x}`);
      const k = r.int(4);
      assert.ok(Number.isInteger(k) && k >= 0 && k < 4);
      counts[k]!++;
    }
    for (const c of counts) assert.ok(c > 850 && c < 1150, `counts ${counts}`);
    assert.equal(r.chance(0), false);
  });

  it('gives each part a stream of its own: one draw more in one part shifts no other', () => {
    const a = seededRandom('run');
    const b = seededRandom('run');
    a.fork('network').next(); // one part draws once more in run a
    assert.deepEqual(draws(a.fork('faults')), draws(b.fork('faults')));
    assert.notDeepEqual(draws(a.fork('faults')), draws(a.fork('network')));
    assert.deepEqual(draws(a.fork('x').fork('y')), draws(seededRandom('run', 'x/y')));
  });
});
