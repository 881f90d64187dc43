/**
 * consensus/verdicts/height.ts and verdict.ts: where a message stands by its height, each case
 * with its answer, and the one mapping of a verdict to the p2p layer's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type HeightNow, type Placement, placeHeight } from '../../../../src/consensus/verdicts/height.js';
import { ACCEPT, ignore, reject, toGossip } from '../../../../src/consensus/verdicts/verdict.js';

describe('verdicts/height', () => {
  const deciding5: HeightNow = { height: 5, started: true };
  const cases: [string, number, HeightNow, Placement][] = [
    ['the height being decided: checked now', 5, deciding5, 'current'],
    ['the next height: kept until the node enters it', 6, deciding5, 'next'],
    [
      'before consensus starts, its first height is kept too (validators not known yet)',
      5,
      { height: 5, started: false },
      'next',
    ],
    ['[IGNORE] a height committed here', 4, deciding5, ignore('stale-height')],
    ['[IGNORE] the first height, long committed', 1, deciding5, ignore('stale-height')],
    ['[IGNORE] beyond the next height: this node is behind', 7, deciding5, ignore('far-ahead')],
    ['[IGNORE] far beyond', 1_000_000, deciding5, ignore('far-ahead')],
  ];
  for (const [name, height, at, expected] of cases)
    it(name, () => assert.deepEqual(placeHeight(height, at), expected));
});

describe('verdicts/verdict', () => {
  it('maps each verdict to the p2p one by its kind, whatever its reason', () => {
    assert.equal(toGossip(ACCEPT), 'accept');
    assert.equal(toGossip(ignore('next-height-full')), 'ignore');
    assert.equal(toGossip(reject('bad-signature')), 'reject');
  });
});
