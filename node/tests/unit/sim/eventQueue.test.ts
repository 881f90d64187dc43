import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventQueue } from '../../../src/sim/eventQueue.js';
import { seededRandom } from '../../../src/sim/random.js';

describe('EventQueue', () => {
  it('gives events in order of due time then seq, as a sorted list does, pushes and pops interleaved', () => {
    const random = seededRandom('queue');
    const q = new EventQueue<{ due: number; seq: number }>();
    const reference: { due: number; seq: number }[] = [];
    const taken: string[] = [];
    const expected: string[] = [];
    let seq = 0;
    let now = 0;
    for (let i = 0; i < 5000; i++) {
      if (random.chance(0.55) || reference.length === 0) {
        // Few distinct due times, so that ties (same due, later seq) are common.
        const e = { due: now + Math.floor(random.next() * 20), seq: seq++ };
        q.push(e);
        reference.push(e);
        reference.sort((a, b) => a.due - b.due || a.seq - b.seq);
      } else {
        const got = q.pop()!;
        const want = reference.shift()!;
        now = got.due;
        taken.push(`${got.due}/${got.seq}`);
        expected.push(`${want.due}/${want.seq}`);
      }
      assert.equal(q.size, reference.length);
    }
    while (reference.length > 0) {
      const got = q.pop()!;
      const want = reference.shift()!;
      taken.push(`${got.due}/${got.seq}`);
      expected.push(`${want.due}/${want.seq}`);
    }
    assert.deepEqual(taken, expected);
    assert.equal(q.pop(), undefined);
    assert.equal(q.peek(), undefined);
  });
});
