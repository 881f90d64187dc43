import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withDeadline } from '../../src/values/deadline.js';

describe('withDeadline', () => {
  it('gives the work its result when it finishes in time', async () => {
    assert.equal(await withDeadline(1000, 'late', async () => 42), 42);
  });

  it('passes the work its own failure', async () => {
    await assert.rejects(
      withDeadline(1000, 'late', async () => {
        throw new Error('refused');
      }),
      /refused/,
    );
  });

  it('releases the caller at the deadline even when the work ignores its signal', async () => {
    let signal: AbortSignal | undefined;
    const started = Date.now();
    await assert.rejects(
      withDeadline(50, 'no answer within 50 ms', (s) => {
        signal = s;
        return new Promise<number>(() => undefined);
      }),
      /no answer within 50 ms/,
    );
    assert.ok(Date.now() - started < 1000);
    assert.equal(signal?.aborted, true, 'the work is told to stop');
  });

  it('turns a synchronous throw of the work into a rejection', async () => {
    await assert.rejects(
      withDeadline(1000, 'late', () => {
        throw new Error('at once');
      }),
      /at once/,
    );
  });
});
