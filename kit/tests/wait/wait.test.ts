/** The one bounded polling wait: what it returns, what counts as "not yet", and what a timeout says. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimeoutError, waitFor, waitForOrNull } from '../../src/wait/index.js';

describe('waitFor', () => {
  it('polls until the probe gives a value, treating undefined, null and false as not yet', async () => {
    const answers = [undefined, null, false, 0, 7];
    let probes = 0;
    const v = await waitFor('a value', 5_000, async () => answers[probes++], { pollMs: 1 });
    assert.equal(v, 0, '0 is a value');
    assert.equal(probes, 4);
  });

  it('keeps polling through errors, and a timeout names what was awaited, what was seen and the last error', async () => {
    let n = 0;
    await assert.rejects(
      waitFor(
        'validator-1 at height 5',
        50,
        async () => {
          n++;
          throw new Error(`connection refused #${n}`);
        },
        { pollMs: 5, seen: () => `validator-1 at ${n}` },
      ),
      (e: unknown) => {
        assert.ok(e instanceof TimeoutError);
        assert.match(e.message, /^timed out after 0\.1 s waiting for validator-1 at height 5/);
        assert.match(
          e.message,
          new RegExp(`last seen: validator-1 at ${n}; last error: connection refused #${n}$`),
        );
        return true;
      },
    );
    assert.ok(n > 1, 'the probe was retried after its error');
  });

  it('an answer after an error clears the error: the timeout reports only what was seen', async () => {
    let n = 0;
    await assert.rejects(
      waitFor(
        'never',
        30,
        async () => {
          if (n++ === 0) throw new Error('first probe failed');
          return null;
        },
        { pollMs: 5 },
      ),
      (e: Error) => e.message === 'timed out after 0 s waiting for never',
    );
  });

  it('probes once with a bound of 0, and waitForOrNull gives null when the bound runs out', async () => {
    let probes = 0;
    assert.equal(await waitFor('at once', 0, async () => ++probes), 1);
    assert.equal(await waitForOrNull('nothing', 20, async () => null, { pollMs: 5 }), null);
    assert.equal(await waitForOrNull('something', 20, async () => 'x'), 'x');
  });
});
