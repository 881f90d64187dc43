/**
 * <home>/net_conditions.json (faults/netConditionsFile.ts): what the devnet writes is read back
 * the same; every kind of bad file is refused naming its bad field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNetConditions, parseNetConditions } from '../../../src/faults/netConditionsFile.js';
import type { NetConditions } from '../../../src/p2p/shaping/conditions.js';

const id = '12D3KooWLQ1cJ7pzKJw3Rcw2TmqNbaJJomzQRxKQdkqMRaWaERVu';

describe('net_conditions.json', () => {
  it('reads back what it wrote: links with the fields set, deaf_to sorted and once', () => {
    const c: NetConditions = {
      links: [
        { peer: '*', direction: 'out', latencyMs: 100, jitterMs: 20, loss: 0.01, rateBps: 1_000_000 },
        { peer: id, direction: 'in', latencyMs: 5 },
      ],
      deafTo: ['b', 'a', 'b'],
    };
    const text = formatNetConditions(c);
    assert.equal(
      text,
      `{"version":1,"links":[{"peer":"*","direction":"out","latency_ms":100,"jitter_ms":20,"loss":0.01,"rate_bps":1000000},{"peer":"${id}","direction":"in","latency_ms":5}],"deaf_to":["a","b"]}\n`,
    );
    assert.deepEqual(parseNetConditions(text), { ok: true, conditions: { ...c, deafTo: ['a', 'b'] } });
    assert.deepEqual(parseNetConditions('{"version":1}'), {
      ok: true,
      conditions: { links: [], deafTo: [] },
    });
  });

  const bad: [string, unknown, RegExp][] = [
    ['not an object', [], /must be a JSON object/],
    ['another version', { version: 2 }, /version must be 1/],
    ['an unknown field', { version: 1, zones: [] }, /zones is not a field/],
    ['links not an array', { version: 1, links: {} }, /links must be an array/],
    ['a link not an object', { version: 1, links: [3] }, /links\[0\] must be an object/],
    [
      'a link field unknown',
      { version: 1, links: [{ peer: '*', direction: 'out', delay: 1 }] },
      /links\[0\]\.delay is not a field/,
    ],
    ['no peer', { version: 1, links: [{ direction: 'out' }] }, /links\[0\]\.peer must be/],
    [
      'a bad direction',
      { version: 1, links: [{ peer: '*', direction: 'both' }] },
      /links\[0\]\.direction must be "out" or "in"/,
    ],
    [
      'a negative latency',
      { version: 1, links: [{ peer: '*', direction: 'out', latency_ms: -1 }] },
      /links\[0\]\.latency_ms must be a number of ms/,
    ],
    [
      'a latency of an hour',
      { version: 1, links: [{ peer: '*', direction: 'out', latency_ms: 3_600_000 }] },
      /latency_ms/,
    ],
    [
      'a jitter as text',
      { version: 1, links: [{ peer: '*', direction: 'in', jitter_ms: '5' }] },
      /links\[0\]\.jitter_ms/,
    ],
    [
      'a loss of 1',
      { version: 1, links: [{ peer: '*', direction: 'out', loss: 1 }] },
      /links\[0\]\.loss must be a fraction/,
    ],
    [
      'a rate too slow',
      { version: 1, links: [{ peer: '*', direction: 'out', rate_bps: 100 }] },
      /links\[0\]\.rate_bps must be a whole number/,
    ],
    [
      'a rate not whole',
      { version: 1, links: [{ peer: '*', direction: 'out', rate_bps: 10000.5 }] },
      /rate_bps/,
    ],
    [
      'a link twice',
      {
        version: 1,
        links: [
          { peer: '*', direction: 'out' },
          { peer: '*', direction: 'out' },
        ],
      },
      /links\[1\] repeats peer \*, direction out/,
    ],
    ['deaf_to with *', { version: 1, deaf_to: ['*'] }, /deaf_to must be an array of at most 10000 peer ids/],
    ['deaf_to not ids', { version: 1, deaf_to: [1] }, /deaf_to/],
  ];
  for (const [what, j, error] of bad)
    it(`refuses ${what}, naming the field`, () => {
      const r = parseNetConditions(JSON.stringify(j));
      assert.equal(r.ok, false);
      assert.match((r as { error: string }).error, error);
    });

  it('refuses text that is not JSON, and a padded file of too many rules', () => {
    assert.match((parseNetConditions('{"version":') as { error: string }).error, /not JSON/);
    const many = { version: 1, deaf_to: Array.from({ length: 10_001 }, (_, i) => `p${i}`) };
    assert.equal(parseNetConditions(JSON.stringify(many)).ok, false);
  });
});
