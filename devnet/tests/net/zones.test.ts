/** Zones in a manifest checked field by field (net/zones.ts, spec/manifest.ts), and the partition shapes (net/shapes.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shapeGroups } from '../../src/net/shapes.js';
import { apart } from '../../src/runtime/partition.js';
import { checkManifest } from '../../src/spec/manifest.js';

const problems = (m: unknown) => {
  const c = checkManifest(m);
  return c.ok ? [] : c.problems;
};
const validators = (...zones: string[]) => zones.map((zone, i) => ({ name: `v${i}`, zone }));

describe('the zones of a manifest', () => {
  it('takes a matrix given one way, both ways equal, and numbers as round trips', () => {
    assert.deepEqual(
      problems({ validators: validators('eu', 'us'), zones: { eu: { us: 200 }, us: {} } }),
      [],
    );
    assert.deepEqual(
      problems({
        validators: validators('eu', 'us'),
        zones: { eu: { us: { rtt_ms: 200, loss: 0.01 } }, us: { eu: { rtt_ms: 200, loss: 0.01 } } },
      }),
      [],
    );
  });

  it('names the bad field: an unknown zone, a missing pair, an asymmetric pair, a bad entry', () => {
    assert.deepEqual(problems({ validators: validators('eu', 'asia'), zones: { eu: {} } }), [
      'validators[1].zone: "asia" is not a zone of zones (eu)',
    ]);
    assert.deepEqual(problems({ validators: validators('eu', 'us'), zones: { eu: {}, us: {} } }), [
      'zones: no round trip between eu and us (give zones.eu.us)',
    ]);
    assert.deepEqual(
      problems({ validators: validators('eu', 'us'), zones: { eu: { us: 200 }, us: { eu: 150 } } }),
      ['zones.eu.us and zones.us.eu differ: a round trip is the same both ways (give one of them)'],
    );
    assert.deepEqual(problems({ validators: validators('eu'), zones: { eu: { us: 1 } } }), [
      'zones.eu.us: us is not a zone of zones (eu)',
    ]);
    assert.deepEqual(problems({ validators: validators('eu'), zones: { eu: { eu: { rtt_ms: -1 } } } }), [
      'zones.eu.eu.rtt_ms must be a round trip in ms from 0 to 120000',
    ]);
    assert.deepEqual(problems({ validators: validators('eu'), zones: { eu: { eu: { rtt: 1 } } } }), [
      'zones.eu.eu.rtt is not a field (rtt_ms, jitter_ms, loss)',
    ]);
  });
});

describe('partition shapes', () => {
  const five = ['v0', 'v1', 'v2', 'v3', 'v4'];
  const seen = (groups: string[][], a: string) => five.filter((b) => b !== a && !apart(groups, a, b));

  it('minority and halves cut two sides', () => {
    assert.deepEqual(shapeGroups('minority', five), [
      ['v0', 'v1', 'v2'],
      ['v3', 'v4'],
    ]);
    assert.deepEqual(shapeGroups('halves', ['a', 'b', 'c', 'd']), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('a bridge node sees both sides, they only their own', () => {
    const g = shapeGroups('bridge', five);
    assert.deepEqual(seen(g, 'v2'), ['v0', 'v1', 'v3', 'v4']);
    assert.deepEqual(seen(g, 'v0'), ['v1', 'v2']);
  });

  it('a ring: each sees a majority with itself, no two the same', () => {
    const g = shapeGroups('ring', five);
    const views = five.map((a) => [a, ...seen(g, a)].sort().join());
    assert.equal(new Set(views).size, 5);
    for (const v of views) assert.equal(v.split(',').length, 3);
    const four = shapeGroups('ring', ['a', 'b', 'c', 'd']);
    assert.equal(apart(four, 'a', 'c'), true);
    assert.equal(apart(four, 'a', 'b'), false);
    assert.throws(() => shapeGroups('ring', ['a', 'b', 'c']), /at least 4 nodes/);
  });

  it('nodes in no group stay together, apart from the grouped', () => {
    assert.equal(apart([['a']], 'b', 'c'), false);
    assert.equal(apart([['a']], 'a', 'c'), true);
  });
});
