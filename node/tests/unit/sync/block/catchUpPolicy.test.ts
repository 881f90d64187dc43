/**
 * When a node catches up by block sync (sync/block/catchUpPolicy.ts), each condition with its
 * answer: a stalled height asks every peer, a silent undecided one asks a few (once a second),
 * and a message of the next height waits a grace time unless nothing of this height was heard.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BEHIND_GRACE_MS,
  behindGraceMs,
  type CatchUp,
  onTick,
  type Quiet,
  SILENCE_ASK_PEERS,
} from '../../../../src/sync/block/catchUpPolicy.js';

const T = 1_000_000;
const base: Quiet = { now: T, blockTimeMs: 500, lastProgressAt: T, askedAt: 0, deciding: true };
const NONE: CatchUp = { kind: 'none' };

describe('catchUpPolicy.onTick', () => {
  const cases: [string, Partial<Quiet>, CatchUp][] = [
    ['the height just moved', {}, NONE],
    ['quiet 1 s: not yet silent (more than max(1 s, block time) is)', { lastProgressAt: T - 1000 }, NONE],
    [
      'quiet 1.001 s and undecided: ask a few peers',
      { lastProgressAt: T - 1001 },
      { kind: 'silent', askPeers: SILENCE_ASK_PEERS, quietMs: 1001 },
    ],
    [
      'quiet, but decided here (committed by sync): nobody to ask',
      { lastProgressAt: T - 2000, deciding: false },
      NONE,
    ],
    ['silent, but asked under a second ago', { lastProgressAt: T - 2000, askedAt: T - 1000 }, NONE],
    [
      'silent, asked over a second ago',
      { lastProgressAt: T - 2000, askedAt: T - 1001 },
      { kind: 'silent', askPeers: SILENCE_ASK_PEERS, quietMs: 2000 },
    ],
    ['silence waits a block time when that is longer', { blockTimeMs: 2000, lastProgressAt: T - 1500 }, NONE],
    ['no move for 3 s: not yet stalled', { lastProgressAt: T - 3000, deciding: false }, NONE],
    ['no move for over 3 s: stalled, ask every peer', { lastProgressAt: T - 3001 }, { kind: 'stalled' }],
    ['stalled whether deciding or not', { lastProgressAt: T - 3001, deciding: false }, { kind: 'stalled' }],
    [
      'the stall bound is 5 block times when that is longer',
      { blockTimeMs: 1000, lastProgressAt: T - 4000, deciding: false },
      NONE,
    ],
    [
      'stalled past 5 block times',
      { blockTimeMs: 1000, lastProgressAt: T - 5001, deciding: false },
      { kind: 'stalled' },
    ],
  ];
  for (const [name, change, expected] of cases)
    it(name, () => assert.deepEqual(onTick({ ...base, ...change }), expected));
});

describe('catchUpPolicy.behindGraceMs', () => {
  const cases: [string, boolean, number, number][] = [
    [
      'heard some of the height: the whole grace (the decision may be a hop behind)',
      true,
      T - 5000,
      BEHIND_GRACE_MS,
    ],
    ['heard nothing, entered just now: the grace from entering', false, T, BEHIND_GRACE_MS],
    ['heard nothing, entered 300 ms ago: what is left of it', false, T - 300, 100],
    ['heard nothing, entered over the grace ago: at once', false, T - 500, 0],
  ];
  for (const [name, heard, startedAt, expected] of cases)
    it(name, () => assert.equal(behindGraceMs(heard, startedAt, T), expected));
});
