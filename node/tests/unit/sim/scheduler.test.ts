import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimScheduler } from '../../../src/sim/scheduler.js';

describe('SimScheduler', () => {
  it('runs events by due time, then in the order they were scheduled, with the clock at each', async () => {
    const s = new SimScheduler(1000);
    const seen: string[] = [];
    s.after(30, () => seen.push(`c@${s.now}`));
    s.after(10, () => seen.push(`a@${s.now}`));
    s.after(10, () => seen.push(`b@${s.now}`));
    s.after(10, () => s.after(0, () => seen.push(`d@${s.now}`)));
    await s.run({ until: 2000 });
    assert.deepEqual(seen, ['a@1010', 'b@1010', 'd@1010', 'c@1030']);
    assert.equal(s.now, 2000);
  });

  it("lets an event's promise jobs finish before the next event", async () => {
    const s = new SimScheduler(0);
    const seen: string[] = [];
    s.after(1, () => {
      void (async () => {
        await Promise.resolve();
        await new Promise((r) => setImmediate(r));
        seen.push('first done');
      })();
    });
    s.after(1, () => seen.push('second'));
    await s.run({ until: 10 });
    assert.deepEqual(seen, ['first done', 'second']);
  });

  it('gives each node a ticker: keyed timers replaced and cancelled by prefix, repeating ones, an offset clock', async () => {
    const s = new SimScheduler(0);
    const t = s.tickerFor(500);
    const seen: string[] = [];
    t.schedule('height/a', 10, () => seen.push('replaced'));
    t.schedule('height/a', 20, () => seen.push('a'));
    t.schedule('height/b', 30, () => seen.push('b'));
    t.schedule('other', 40, () => seen.push('other'));
    assert.ok(t.pending('height/a'));
    t.cancel('height/b');
    const stop = t.every(15, () => seen.push(`every@${t.now()}`));
    s.after(50, stop);
    await s.run({ until: 100 });
    assert.deepEqual(seen, ['every@515', 'a', 'every@530', 'other', 'every@545']);
    assert.equal(t.pending('height/a'), false);
  });

  it('stops when done holds, or at the bound of events', async () => {
    const s = new SimScheduler(0);
    let n = 0;
    const tick = () => {
      n++;
      s.after(1, tick);
    };
    s.after(1, tick);
    assert.equal(await s.run({ until: 1e9, done: () => n >= 5 }), true);
    assert.equal(n, 5);
    assert.equal(await s.run({ until: 1e9, done: () => false, maxEvents: 20 }), false);
    assert.equal(s.events, 20);
  });
});
