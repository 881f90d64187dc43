/**
 * The shaped pipe (p2p/shaping/shapedPipe.ts) on a ManualTicker: chunks read as they come and
 * delivered at their deadlines, in order; back-pressure past the high-water mark; what was read
 * before a failure still delivered, then the failure.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HIGH_WATER_BYTES, shapedPipe } from '../../../../src/p2p/shaping/shapedPipe.js';
import { ManualTicker } from '../../../../src/util/ticker.js';

const turn = () => new Promise((r) => setImmediate(r));
/** A link with a condition, all along. */
const shaped = () => false;

/** A source the test feeds by hand; `read` counts what the pipe took. */
function handFed() {
  const waiting: ((r: IteratorResult<Uint8Array>) => void)[] = [];
  const ready: IteratorResult<Uint8Array>[] = [];
  let failure: Error | null = null;
  const state = { read: 0 };
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        if (failure !== null) return Promise.reject(failure);
        const r = ready.shift();
        if (r !== undefined) {
          if (!r.done) state.read++;
          return Promise.resolve(r);
        }
        return new Promise((resolve) =>
          waiting.push((x) => {
            if (!x.done) state.read++;
            resolve(x);
          }),
        );
      },
    }),
  };
  const give = (r: IteratorResult<Uint8Array>) => {
    const w = waiting.shift();
    if (w) w(r);
    else ready.push(r);
  };
  return {
    source,
    state,
    push: (n: number) => give({ done: false, value: new Uint8Array(n) }),
    end: () => give({ done: true, value: undefined }),
    fail: (e: Error) => {
      failure = e;
      const w = waiting.shift();
      if (w) w(Promise.reject(e) as never);
    },
  };
}

/** Collects what the pipe yields, with the ticker's time of each. */
function drain(pipe: AsyncIterable<Uint8Array>, ticker: ManualTicker) {
  const got: { at: number; bytes: number }[] = [];
  const done = (async () => {
    for await (const c of pipe) got.push({ at: ticker.now(), bytes: c.byteLength });
  })();
  return { got, done };
}

describe('the shaped pipe', () => {
  it('delivers each chunk at its own deadline, 100 ms after each was handed over, not one after another', async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    const { got } = drain(
      shapedPipe(fed.source, () => ticker.now() + 100, shaped, ticker, 'k'),
      ticker,
    );
    for (const t of [0, 1, 2]) {
      ticker.advance(t - ticker.now());
      fed.push(10);
      await turn();
    }
    assert.equal(got.length, 0, 'nothing before its time');
    for (let i = 0; i < 110; i++) {
      ticker.advance(1);
      await turn();
    }
    assert.deepEqual(
      got.map((g) => g.at),
      [100, 101, 102],
    );
  });

  it('stops reading past the high-water mark until chunks are delivered (back-pressure)', async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    const chunk = 1024 * 1024;
    drain(
      shapedPipe(fed.source, () => ticker.now() + 1000, shaped, ticker, 'k'),
      ticker,
    );
    for (let i = 0; i < 8; i++) fed.push(chunk);
    for (let i = 0; i < 20; i++) await turn();
    assert.equal(fed.state.read, HIGH_WATER_BYTES / chunk + 1, 'read up to the mark and one past');
    ticker.advance(1000);
    for (let i = 0; i < 20; i++) await turn();
    assert.equal(fed.state.read, 8, 'the rest read once the first were delivered');
  });

  it('delivers what it read before the source failed, then fails', async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    const { got, done } = drain(
      shapedPipe(fed.source, () => ticker.now() + 50, shaped, ticker, 'k'),
      ticker,
    );
    fed.push(1);
    fed.push(2);
    await turn();
    fed.fail(new Error('connection reset'));
    await turn();
    assert.equal(got.length, 0);
    ticker.advance(50);
    await assert.rejects(done, /connection reset/);
    assert.deepEqual(
      got.map((g) => g.bytes),
      [1, 2],
    );
  });

  it('ends after the last chunk is delivered, its timer cancelled', async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    const { got, done } = drain(
      shapedPipe(fed.source, () => ticker.now() + 10, shaped, ticker, 'k'),
      ticker,
    );
    fed.push(3);
    fed.end();
    await turn();
    ticker.advance(10);
    await done;
    assert.deepEqual(got, [{ at: 10, bytes: 3 }]);
    assert.equal(ticker.pending('k'), false);
  });

  it('passes chunks straight through while the link is clear, with no timer; shapes once a condition is set; passes again once it is cleared and delivered', async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    let clear = true;
    const pipe = shapedPipe(
      fed.source,
      // As the node's deadline: the latency while a condition is set, now once it is clear.
      () => ticker.now() + (clear ? 0 : 100),
      () => clear,
      ticker,
      'k',
    );
    const got: { at: number; chunk: Uint8Array }[] = [];
    const done = (async () => {
      for await (const c of pipe) got.push({ at: ticker.now(), chunk: c });
    })();
    fed.push(0);
    await turn();
    assert.equal(got.length, 1, 'delivered at once');
    assert.equal(ticker.pending('k'), false);
    clear = false;
    fed.push(2);
    fed.push(3);
    await turn();
    // The read pending when the condition came passes at once; the chunks after it wait 100 ms.
    ticker.advance(100);
    for (let i = 0; i < 5; i++) await turn();
    clear = true;
    fed.push(4);
    for (let i = 0; i < 5; i++) await turn();
    ticker.advance(100);
    for (let i = 0; i < 5; i++) await turn();
    fed.push(5);
    await turn();
    fed.end();
    await done;
    assert.deepEqual(
      got.map((g) => [g.chunk.byteLength, g.at]),
      [
        [0, 0],
        [2, 0],
        [3, 100],
        [4, 100],
        [5, 200],
      ],
    );
  });

  it('a link cleared while chunks wait for late deadlines delivers them at once, within a quarter second', async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    let clear = false;
    const { got } = drain(
      shapedPipe(
        fed.source,
        () => ticker.now() + (clear ? 0 : 60_000),
        () => clear,
        ticker,
        'k',
      ),
      ticker,
    );
    for (const n of [1, 2, 3]) fed.push(n);
    for (let i = 0; i < 5; i++) await turn();
    ticker.advance(1000);
    assert.equal(got.length, 0, 'a minute of delay asked');
    clear = true;
    for (let i = 0; i < 3; i++) {
      ticker.advance(100);
      for (let j = 0; j < 5; j++) await turn();
    }
    assert.deepEqual(
      got.map((g) => g.bytes),
      [1, 2, 3],
    );
    assert.ok(
      got.every((g) => g.at <= 1250),
      `delivered at ${got.map((g) => g.at)}`,
    );
  });

  it("stops reading while the link's rate is more than a second behind, and reads on as it catches up", async () => {
    const ticker = new ManualTicker();
    const fed = handFed();
    let behind = 5_000;
    drain(
      shapedPipe(
        fed.source,
        () => ticker.now() + 10,
        () => false,
        ticker,
        'k',
        () => behind,
      ),
      ticker,
    );
    for (const n of [1, 2, 3]) fed.push(n);
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(fed.state.read, 1, 'one chunk read, then the backlog holds the reading');
    behind = 0;
    ticker.advance(300);
    for (let i = 0; i < 10; i++) await turn();
    assert.equal(fed.state.read, 3);
  });
});
