/** What each node's net_conditions.json says, made from the devnet's record and its zones (net/compose.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNetConditions, parseNetConditions } from '@chain-devnet/node/testnet';
import { conditionsOf } from '../../src/net/compose.js';
import {
  formatNetState,
  NO_NET,
  parseNetState,
  withLinks,
  withOneWay,
  withoutLinks,
} from '../../src/net/netState.js';
import { formatLoss, formatRate } from '../../src/net/shown.js';
import { parseDelay, parseLoss, parseRate } from '../../src/net/units.js';
import type { ZoneSetup } from '../../src/net/zones.js';

const peers = ['a', 'b', 'c'].map((name) => ({ name, peerId: `id-${name}` })) as never[];
const zones: ZoneSetup = {
  matrix: { eu: { us: { rtt_ms: 200, jitter_ms: 20, loss: 0.0199 } }, us: {} },
  nodes: { a: 'eu', b: 'us', c: 'us' },
};

describe('the units of conditions', () => {
  it('reads delays, loss and rates as people write them', () => {
    assert.equal(parseDelay('100ms'), 100);
    assert.equal(parseDelay('0.2s'), 200);
    assert.equal(parseDelay('7'), 7);
    assert.equal(parseDelay('100us'), null);
    assert.equal(parseDelay('61s'), null);
    assert.equal(parseLoss('1%'), 0.01);
    assert.equal(parseLoss('0.3'), 0.3);
    assert.equal(parseLoss('100%'), null);
    assert.equal(parseLoss('-1%'), null);
    assert.equal(parseRate('1mbit'), 1_000_000);
    assert.equal(parseRate('500kbit'), 500_000);
    assert.equal(parseRate('1gbit'), 1e9);
    assert.equal(parseRate('100bit'), null, 'below the node bound');
    assert.equal(parseRate('1mb'), null, 'bytes are not a unit of rate here');
    assert.equal(formatRate(1_500_000), '1.5mbit');
    assert.equal(formatLoss(0.01), '1%');
  });
});

describe('the devnet record of conditions', () => {
  it('sets fields link by link, keeps the others, clears what it is asked to', () => {
    let s = withLinks(NO_NET, 'a', ['*'], ['out', 'in'], { latencyMs: 100 });
    s = withLinks(s, 'a', ['*'], ['out'], { loss: 0.01 });
    assert.deepEqual(s.links, [
      { node: 'a', peer: '*', direction: 'out', latencyMs: 100, loss: 0.01 },
      { node: 'a', peer: '*', direction: 'in', latencyMs: 100 },
    ]);
    assert.deepEqual(withoutLinks(s, 'a', null, ['in']).links.length, 1);
    assert.deepEqual(withoutLinks(s, null, null, ['out', 'in']).links, []);
  });

  it('reads back what it writes, and names the bad field of a file edited wrong', () => {
    const s = withOneWay(withLinks(NO_NET, 'a', ['b'], ['in'], { rateBps: 8000 }), 'a', 'b');
    const known = (n: string) => ['a', 'b', 'c'].includes(n);
    assert.deepEqual(parseNetState(formatNetState(s), known), { ok: true, state: s });
    const bad = formatNetState(s).replace('"peer": "b"', '"peer": "z"');
    assert.deepEqual(parseNetState(bad, known), {
      ok: false,
      error: 'links[0].peer must be a node of the devnet or "*"',
    });
    const badZone = formatNetState({ ...s, zones: { matrix: { eu: {} }, nodes: { a: 'mars' } } });
    assert.match((parseNetState(badZone, known) as { error: string }).error, /zones\.nodes\.a: "mars"/);
  });
});

describe("a node's conditions", () => {
  it('are half of each round trip on its out to the other zone, none inside its own', () => {
    const c = conditionsOf('a', NO_NET, zones, peers);
    assert.equal(c.links.length, 2);
    for (const l of c.links) {
      assert.equal(l.direction, 'out');
      assert.equal(l.latencyMs, 100);
      assert.equal(l.jitterMs, 10);
      // (1 - l)² = 1 - 0.0199
      assert.ok(Math.abs(l.loss! - 0.01) < 1e-9, String(l.loss));
    }
    assert.deepEqual(
      conditionsOf('b', NO_NET, zones, peers).links.map((l) => l.peer),
      ['id-a'],
    );
  });

  it("let the node's rules override zone fields: its * rule, then its rule for the peer", () => {
    let s = withLinks(NO_NET, 'a', ['*'], ['out'], { latencyMs: 5, rateBps: 1e6 });
    s = withLinks(s, 'a', ['b'], ['out'], { loss: 0.2, rateBps: 64_000 });
    const c = conditionsOf('a', s, zones, peers);
    assert.deepEqual(c.links, [
      { peer: '*', direction: 'out', latencyMs: 5, rateBps: 1e6 },
      { peer: 'id-b', direction: 'out', latencyMs: 5, jitterMs: 10, loss: 0.2, rateBps: 64_000 },
      { peer: 'id-c', direction: 'out', latencyMs: 5, jitterMs: 10, loss: c.links[2]!.loss },
    ]);
    // The node's parser takes what the devnet writes.
    assert.equal(parseNetConditions(formatNetConditions(c)).ok, true);
  });

  it('are deaf to the peers cut one way towards it, by peer id', () => {
    const s = withOneWay(NO_NET, 'a', 'b');
    assert.deepEqual(conditionsOf('b', s, null, peers).deafTo, ['id-a']);
    assert.deepEqual(conditionsOf('a', s, null, peers).deafTo, []);
  });
});
