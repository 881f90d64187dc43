/**
 * A halted node's wait for the peers behind it (sync/block/haltLinger.ts), on a manual ticker:
 * it ends as soon as every connected peer has its height, waits while one is behind, ends when
 * that peer leaves, and gives up after the bound naming the peers still behind.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { memoryLogger } from '@chain-devnet/kit/log';
import {
  HALT_LINGER_MAX_MS,
  HALT_LINGER_POLL_MS,
  serveLaggards,
} from '../../../../src/sync/block/haltLinger.js';
import { ManualTicker } from '../../../../src/util/ticker.js';

/** Runs `serveLaggards` to its end, moving the ticker one poll at a time; the polls it took. */
async function run(
  height: number,
  peers: () => readonly string[],
  heightOf: (peer: string, poll: number) => number | null,
): Promise<{ behind: string[]; polls: number; messages: string[] }> {
  const ticker = new ManualTicker();
  const logger = memoryLogger();
  let polls = 0;
  let done: string[] | null = null;
  void serveLaggards(height, {
    peers,
    peerHeight: async (p) => heightOf(p, polls),
    ticker,
    logger,
  }).then((b) => {
    done = b;
  });
  while (done === null) {
    await setImmediate();
    if (done !== null) break;
    polls++;
    ticker.advance(HALT_LINGER_POLL_MS);
    assert.ok(polls < 1000, 'serveLaggards never ended');
  }
  return { behind: done, polls, messages: logger.lines.map((l) => String(l.msg ?? l.message)) };
}

describe('a halted node serving the peers behind it', () => {
  it('exits at once when every connected peer has its height, or none is connected', async () => {
    assert.deepEqual(
      (
        await run(
          9,
          () => ['a', 'b'],
          () => 9,
        )
      ).polls,
      0,
    );
    assert.deepEqual(
      (
        await run(
          9,
          () => ['a', 'b'],
          () => 12,
        )
      ).behind,
      [],
    );
    assert.deepEqual(
      (
        await run(
          9,
          () => [],
          () => null,
        )
      ).polls,
      0,
    );
  });

  it('waits while a peer is behind or does not answer, until it has the height', async () => {
    const r = await run(
      9,
      () => ['a', 'b'],
      (p, poll) => (p === 'a' ? 9 : poll < 3 ? 7 : poll < 6 ? null : 9),
    );
    assert.deepEqual(r.behind, []);
    assert.equal(r.polls, 6);
    assert.ok(r.messages.some((m) => m.includes('serving block sync until the peers behind')));
  });

  it('a peer behind that disconnects no longer holds it', async () => {
    let connected = ['a', 'b'];
    const r = await run(
      9,
      () => connected,
      (p, poll) => {
        if (poll === 2) connected = ['a'];
        return p === 'a' ? 9 : 3;
      },
    );
    assert.deepEqual(r.behind, []);
    assert.equal(r.polls, 2);
  });

  it('gives up after the bound, naming the peers still behind', async () => {
    const r = await run(
      9,
      () => ['a', 'b'],
      (p) => (p === 'a' ? 9 : null),
    );
    assert.deepEqual(r.behind, ['b']);
    assert.equal(r.polls, HALT_LINGER_MAX_MS / HALT_LINGER_POLL_MS);
    assert.ok(r.messages.some((m) => m.includes('exiting with peers still behind')));
  });
});
