/**
 * The wait of `devnet up` and `start` for every node to reach a height (readiness.ts): its
 * schedule of polls against nodes answering slowly, not at all, or at once. The nodes here are
 * functions giving a height or an error after a while, as the RPC client does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DevnetError } from '../../src/base/errors.js';
import {
  FIRST_ANSWER_WAIT_MS,
  LONGEST_ANSWER_WAIT_MS,
  nextAnswerWait,
  pollGapMs,
  TIMER_SLACK_MS,
  waitForHeights,
} from '../../src/devnet/readiness.js';

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the wait for nodes to reach a height', () => {
  it('counts a node whose answers come later than the first wait once it has answered: the wait grows', async () => {
    // A node answers at once (height 0), then, busy, in 1.3 s; an answer not come within the wait is given up.
    const asked: number[] = [];
    await waitForHeights(['validator-0'], 1, 20_000, async (_name, answerMs) => {
      asked.push(answerMs);
      if (asked.length === 1) return 0;
      if (answerMs < 1300) {
        await later(answerMs);
        throw new Error(`no answer within ${answerMs} ms`);
      }
      await later(1300);
      return 1;
    });
    assert.deepEqual(asked, [FIRST_ANSWER_WAIT_MS, FIRST_ANSWER_WAIT_MS, 2 * FIRST_ANSWER_WAIT_MS]);
  });

  it('waits 1 s for every answer of a node that has not answered yet (a port that accepts and never answers)', async () => {
    const asked: number[] = [];
    await waitForHeights(['validator-0'], 1, 20_000, async (_name, answerMs) => {
      asked.push(answerMs);
      if (asked.length < 3) {
        await later(answerMs);
        throw new Error(`no answer within ${answerMs} ms`);
      }
      return 1;
    });
    assert.deepEqual(asked, [FIRST_ANSWER_WAIT_MS, FIRST_ANSWER_WAIT_MS, FIRST_ANSWER_WAIT_MS]);
  });

  it('asks a node that has arrived no more, and the others until they arrive', async () => {
    const calls = new Map<string, number>();
    await waitForHeights(['a', 'b'], 3, 20_000, async (name) => {
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      return name === 'a' ? 5 : n;
    });
    assert.equal(calls.get('a'), 1);
    assert.equal(calls.get('b'), 3);
  });

  it('fails naming the nodes not there and the last error', async () => {
    await assert.rejects(
      waitForHeights(['validator-0', 'validator-1'], 2, 300, async (name) => {
        if (name === 'validator-1') throw new Error('connect ECONNREFUSED');
        return 2;
      }),
      (e: unknown) =>
        e instanceof DevnetError &&
        e.code === 'TIMEOUT' &&
        /validator-1 not there \(last error: validator-1: connect ECONNREFUSED\)/.test(e.message) &&
        !/validator-0 not there/.test(e.message),
    );
  });

  it('ends at once, naming the node and its reason, when a node that does not answer has exited', async () => {
    // A store of another chain: the node exits at start; the wait must not run out its bound (40 s
    // and TIMEOUT, before issue 39) but say why, as soon as the runtime knows.
    const began = Date.now();
    const asked: string[] = [];
    await assert.rejects(
      waitForHeights(
        ['validator-0', 'validator-1'],
        1,
        30_000,
        async (name) => {
          if (name === 'validator-1') throw new Error('connect ECONNREFUSED');
          return 0;
        },
        async (name) => {
          asked.push(name);
          return name === 'validator-1'
            ? 'chain-node exited with code 1: chain-node: GENESIS_MISMATCH …'
            : null;
        },
      ),
      (e: unknown) =>
        e instanceof DevnetError &&
        e.code === 'NODE_START' &&
        /^validator-1 exited before reaching height 1: chain-node exited with code 1: chain-node: GENESIS_MISMATCH/.test(
          e.message,
        ),
    );
    assert.ok(Date.now() - began < 5_000, `ended after ${Date.now() - began} ms`);
    assert.deepEqual(
      [...new Set(asked)],
      ['validator-1'],
      'only a node that does not answer is asked whether it exited',
    );
  });

  it('asks a node that does not answer whether it exited at most once a second', async () => {
    let asked = 0;
    await assert.rejects(
      waitForHeights(
        ['validator-0'],
        1,
        2_500,
        async () => {
          throw new Error('connect ECONNREFUSED');
        },
        async () => {
          asked++;
          return null;
        },
      ),
      (e: unknown) => e instanceof DevnetError && e.code === 'TIMEOUT',
    );
    assert.ok(asked >= 2 && asked <= 4, `asked ${asked} times in 2.5 s`);
  });

  it('doubles the wait for an answer after one that ran out, up to the longest, once the node has answered', () => {
    assert.equal(nextAnswerWait(1000, 1000, true), 2000);
    assert.equal(nextAnswerWait(1000, 200, true), 1000);
    // A timer fires against the loop's time, taken when its turn began: a wait of 1,000 ms that ran
    // out may measure 999 ms, or less on a busy machine; it ran out all the same.
    assert.equal(nextAnswerWait(1000, 999, true), 2000);
    assert.equal(nextAnswerWait(1000, 1000 - TIMER_SLACK_MS, true), 2000);
    assert.equal(nextAnswerWait(1000, 1000 - TIMER_SLACK_MS - 1, true), 1000);
    assert.equal(
      nextAnswerWait(LONGEST_ANSWER_WAIT_MS, LONGEST_ANSWER_WAIT_MS, true),
      LONGEST_ANSWER_WAIT_MS,
    );
    assert.equal(nextAnswerWait(1000, 1000, false), FIRST_ANSWER_WAIT_MS);
  });

  it('asks each node less often when many are waited for', () => {
    assert.equal(pollGapMs(4), 50);
    assert.equal(pollGapMs(21), 210);
    assert.equal(pollGapMs(50), 500);
  });
});
