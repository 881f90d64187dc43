/** pauseFrozen (runtime/docker/engineErrors.ts): runc's 'unable to freeze' tried again, anything else thrown at once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pauseFrozen } from '../../../src/runtime/docker/engineErrors.js';

const freezeFailure = () =>
  new Error(
    '(HTTP code 500) server error - Cannot pause container x: OCI runtime pause failed: unable to freeze: unknown',
  );

describe('pauseFrozen', () => {
  it('tries again while the freeze is not finished, and is done once it is', async () => {
    let calls = 0;
    await pauseFrozen(async () => {
      if (++calls < 3) throw freezeFailure();
    }, 1);
    assert.equal(calls, 3);
  });
  it('gives up after four freezes, with the engine’s error', async () => {
    let calls = 0;
    await assert.rejects(
      pauseFrozen(async () => {
        calls++;
        throw freezeFailure();
      }, 1),
      /unable to freeze/,
    );
    assert.equal(calls, 4);
  });
  it('throws any other error at once', async () => {
    let calls = 0;
    await assert.rejects(
      pauseFrozen(async () => {
        calls++;
        throw new Error('(HTTP code 409) container is not running');
      }, 1),
      /not running/,
    );
    assert.equal(calls, 1);
  });
});
