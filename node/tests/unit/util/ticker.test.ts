/**
 * The ticker (util/ticker.ts): the manual one fires what falls due in order, with
 * its clock at each timer's due time; a key holds one timer, and cancelling a key cancels the
 * timers under it. The real one is checked only for what needs no waiting (no timed assertions).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualTicker, realTicker } from '../../../src/util/ticker.js';

describe('ManualTicker', () => {
  it('fires due timers in order of due time, then of scheduling, with the clock at each due time', () => {
    const t = new ManualTicker({ now: 1000 });
    const fired: string[] = [];
    t.schedule('b', 20, () => fired.push(`b@${t.now()}`));
    t.schedule('a', 10, () => fired.push(`a@${t.now()}`));
    t.schedule('c', 20, () => fired.push(`c@${t.now()}`));
    t.advance(9);
    assert.deepEqual(fired, []);
    t.advance(11);
    assert.deepEqual(fired, ['a@1010', 'b@1020', 'c@1020']);
    assert.equal(t.now(), 1020);
  });

  it('a timer scheduled by a firing one fires in the same advance when it falls due within it', () => {
    const t = new ManualTicker();
    const fired: number[] = [];
    t.schedule('first', 5, () => t.schedule('second', 5, () => fired.push(t.now())));
    t.advance(10);
    assert.deepEqual(fired, [10]);
  });

  it('one timer per key: scheduling again replaces it; pending and cancel speak of the key', () => {
    const t = new ManualTicker();
    const fired: string[] = [];
    t.schedule('k', 10, () => fired.push('old'));
    t.schedule('k', 30, () => fired.push('new'));
    assert.equal(t.pending('k'), true);
    t.advance(10);
    assert.deepEqual(fired, [], 'the first one was replaced');
    t.advance(20);
    assert.deepEqual(fired, ['new']);
    assert.equal(t.pending('k'), false, 'a fired timer is no longer pending');
  });

  it('cancelling a key cancels the timers under it (`height` takes `height/…`), not those of a longer name', () => {
    const t = new ManualTicker();
    const fired: string[] = [];
    for (const key of ['height', 'height/propose/0', 'height/enter', 'heights', 'join'])
      t.schedule(key, 10, () => fired.push(key));
    t.cancel('height');
    t.advance(10);
    assert.deepEqual(fired, ['heights', 'join']);
  });

  it('every repeats until cancelled; a moved clock fires what fell due at the next advance', () => {
    const clock = { now: 0 };
    const t = new ManualTicker(clock);
    const fired: number[] = [];
    const cancel = t.every(250, () => fired.push(t.now()));
    t.advance(1000);
    assert.deepEqual(fired, [250, 500, 750, 1000]);
    clock.now += 300; // as a test moving the harness's clock does
    t.advance(0);
    assert.deepEqual(fired, [250, 500, 750, 1000, 1300]);
    cancel();
    t.advance(1000);
    assert.equal(fired.length, 5);
  });
});

describe('realTicker', () => {
  it('reads the clock it is given; a cancelled timer is no longer pending', () => {
    const t = realTicker(() => 42);
    assert.equal(t.now(), 42);
    t.schedule('height/propose/0', 60_000, () => assert.fail('cancelled'));
    t.schedule('join', 60_000, () => assert.fail('cancelled'));
    assert.equal(t.pending('join'), true);
    t.cancel('height');
    assert.equal(t.pending('height/propose/0'), false);
    t.cancel('join');
    assert.equal(t.pending('join'), false);
    t.every(60_000, () => assert.fail('cancelled'))();
  });
});
