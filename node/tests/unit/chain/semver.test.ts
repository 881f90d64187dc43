/** Semantic versions (semver.ts): parse and compare, for protocol upgrade plans. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSemVer, parseSemVer, type SemVer } from '../../../src/chain/index.js';

describe('semantic versions', () => {
  it('parses MAJOR.MINOR.PATCH and nothing else', () => {
    const good: [string, SemVer][] = [
      ['0.0.0', { major: 0, minor: 0, patch: 0 }],
      ['1.0.0', { major: 1, minor: 0, patch: 0 }],
      ['1.2.3', { major: 1, minor: 2, patch: 3 }],
      ['10.20.30', { major: 10, minor: 20, patch: 30 }],
      ['999999999.0.1', { major: 999_999_999, minor: 0, patch: 1 }],
    ];
    for (const [text, expected] of good) assert.deepEqual(parseSemVer(text), expected, text);
    const bad = [
      '',
      '1',
      '1.0',
      '1.0.0.0',
      'v1.0.0',
      '01.0.0',
      '1.00.0',
      '1.0.01',
      '1.0.0-rc.1',
      '1.0.0+build',
      ' 1.0.0',
      '1.0.0 ',
      '1.0.0\n',
      '-1.0.0',
      '1.a.0',
      '1..0',
      '1000000000.0.0',
    ];
    for (const text of bad) assert.equal(parseSemVer(text), null, JSON.stringify(text));
  });

  it('compares numerically, major then minor then patch', () => {
    const rows: [string, string, -1 | 0 | 1][] = [
      ['1.0.0', '1.0.0', 0],
      ['1.0.0', '1.0.1', -1],
      ['1.0.1', '1.0.0', 1],
      ['1.1.0', '1.0.9', 1],
      ['2.0.0', '1.99.99', 1],
      ['1.2.3', '1.10.0', -1],
      ['1.9.0', '1.10.0', -1],
      ['0.0.9', '0.0.10', -1],
    ];
    for (const [a, b, sign] of rows)
      assert.equal(Math.sign(compareSemVer(parseSemVer(a)!, parseSemVer(b)!)), sign, `${a} vs ${b}`);
  });
});
