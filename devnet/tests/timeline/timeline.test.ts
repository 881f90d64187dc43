/**
 * The timeline's parts (devnet/src/timeline/): logs parsed to entries (a line that is not JSON kept
 * at the time of the one before), merged in time order with ties in a fixed order, filtered by
 * source, level, regular expression, time and heights (the stretch of time the chain spent there),
 * and printed as lines and as JSON.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeLogs, parseLog } from '../../src/timeline/entries.js';
import { filterTimeline, heightWindow } from '../../src/timeline/filter.js';
import { entryJson, formatEntry } from '../../src/timeline/format.js';

const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 10, 0, s)).toISOString();
const line = (s: number, level: string, msg: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ time: at(s), level, msg, ...fields });

const V0 = [
  line(1, 'info', 'block committed', { height: 1 }),
  line(3, 'info', 'block committed', { height: 2 }),
  'a line a runtime wrote',
  line(5, 'warn', 'no proposal in time', { height: 3, round: 0 }),
  line(7, 'info', 'block committed', { height: 3 }),
].join('\n');
const V1 = [
  line(1, 'info', 'block committed', { height: 1 }),
  line(4, 'error', 'peer lost', { peer: 'validator-0' }),
  line(8, 'info', 'block committed', { height: 3 }),
].join('\n');
const DEVNET = [line(3, 'info', 'kill validator-1', { op: 'kill', node: 'validator-1' })].join('\n');

const merged = () =>
  mergeLogs([parseLog('validator-0', V0), parseLog('validator-1', V1), parseLog('devnet', DEVNET)]);

describe('the timeline', () => {
  it('parses every line, one not JSON kept at the time of the line before it', () => {
    const e = parseLog('validator-0', V0);
    assert.equal(e.length, 5);
    assert.deepEqual(
      e.map((x) => [x.level, x.height]),
      [
        ['info', 1],
        ['info', 2],
        ['text', null],
        ['warn', 3],
        ['info', 3],
      ],
    );
    assert.equal(e[2]!.time, Date.parse(at(3)));
    assert.equal(e[2]!.msg, 'a line a runtime wrote');
    assert.deepEqual(e[3]!.fields, { height: 3, round: 0 });
    // Lines before a log's first entry: at that entry's time (a runtime's words before the node's).
    const lead = parseLog('market', `starting…\n${line(9, 'info', 'listening')}\n`);
    assert.deepEqual(
      lead.map((x) => [x.level, x.time]),
      [
        ['text', Date.parse(at(9))],
        ['info', Date.parse(at(9))],
      ],
    );
  });

  it('merges in time order; at the same millisecond, in the order of the logs and of their lines', () => {
    const m = merged();
    assert.deepEqual(
      m.map((e) => `${new Date(e.time).getUTCSeconds()} ${e.source} ${e.msg}`),
      [
        '1 validator-0 block committed',
        '1 validator-1 block committed',
        '3 validator-0 block committed',
        '3 validator-0 a line a runtime wrote',
        '3 devnet kill validator-1',
        '4 validator-1 peer lost',
        '5 validator-0 no proposal in time',
        '7 validator-0 block committed',
        '8 validator-1 block committed',
      ],
    );
  });

  it('filters by source, level, regular expression, time and heights', () => {
    const m = merged();
    const msgs = (f: Parameters<typeof filterTimeline>[1]) =>
      filterTimeline(m, f).map((e) => `${e.source}:${e.msg}`);
    assert.deepEqual(msgs({ sources: ['devnet'] }), ['devnet:kill validator-1']);
    assert.deepEqual(msgs({ level: 'warn' }), [
      'validator-0:a line a runtime wrote',
      'validator-1:peer lost',
      'validator-0:no proposal in time',
    ]);
    assert.deepEqual(msgs({ grep: /"round":0|peer/ }), [
      'validator-1:peer lost',
      'validator-0:no proposal in time',
    ]);
    assert.deepEqual(msgs({ since: Date.parse(at(4)), until: Date.parse(at(5)) }), [
      'validator-1:peer lost',
      'validator-0:no proposal in time',
    ]);
    // Heights 2..3: from the first line naming 2 (s 3) to the last naming 3 (s 8), everything between.
    assert.deepEqual(heightWindow(m, 2, 3), { from: Date.parse(at(3)), to: Date.parse(at(8)) });
    assert.equal(filterTimeline(m, { heights: { from: 2, to: 3 } }).length, 7);
    assert.deepEqual(msgs({ heights: { from: 2, to: 3 }, sources: ['validator-1'] }), [
      'validator-1:peer lost',
      'validator-1:block committed',
    ]);
    assert.deepEqual(filterTimeline(m, { heights: { from: 9, to: 12 } }), [], 'heights the logs never name');
    // Heights 1..2: up to (not with) the first line naming 3, at s 5: the chain had moved on.
    assert.deepEqual(heightWindow(m, 1, 2), { from: Date.parse(at(1)), to: Date.parse(at(5)) - 1 });
    assert.deepEqual(msgs({ heights: { from: 1, to: 2 }, level: 'warn' }), [
      'validator-0:a line a runtime wrote',
      'validator-1:peer lost',
    ]);
  });

  it('prints a line an entry, columns aligned, and one JSON object an entry with its source', () => {
    const m = merged();
    assert.equal(
      formatEntry(m[6]!, 11),
      '2026-12-04 10:00:05.000  validator-0  WARN   no proposal in time  height=3 round=0',
    );
    assert.equal(
      formatEntry(m[3]!, 11),
      '2026-12-04 10:00:03.000  validator-0         a line a runtime wrote',
    );
    assert.deepEqual(JSON.parse(entryJson(m[4]!)), {
      time: at(3),
      source: 'devnet',
      level: 'info',
      msg: 'kill validator-1',
      op: 'kill',
      node: 'validator-1',
    });
  });
});
