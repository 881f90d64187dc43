import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median } from '../../src/values/median.js';

describe('median', () => {
  it('is the middle sample of an odd count, in any order, leaving the samples as they were', () => {
    const xs = [9, 1, 5];
    assert.equal(median(xs), 5);
    assert.deepEqual(xs, [9, 1, 5]);
  });

  it('is the mean of the middle two of an even count (numbers, not strings, sorted)', () => {
    assert.equal(median([10, 2, 30, 4]), 7);
  });
});
