/**
 * A claim costs nothing, so it must not last (security review, issue 24, item 5): a key with no
 * balance claims tasks before the sample worker. Its claims lapse one claim window (chain time)
 * after they were taken, the tasks are pending again, it may not claim them again, and it holds
 * at most `maxClaimsPerWorker` at once; an honest worker still claims and completes them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RULES } from '../../../src/market/rules.js';
import { key } from '../../fixtures.js';
import {
  claimAs,
  type MarketHarness,
  makeMarketHarness,
  newTask,
  OTHER_WORKER,
  submitResult,
  taskOf,
  WORKER,
} from '../../support/marketHarness.js';

/** No balance at all: a claim costs it nothing. */
const SQUATTER = key('squatter');
const WINDOW = 5;

describe('claims lapse; a squatter holds a task one claim window at the most', () => {
  let m: MarketHarness;
  let ids: string[];
  before(async () => {
    m = await makeMarketHarness({
      rules: { ...DEFAULT_RULES, claimWindowSeconds: WINDOW, maxClaimsPerWorker: 2 },
    });
    ids = [];
    for (let i = 0; i < 4; i++) ids.push(await newTask(m, 1000n + BigInt(i)));
  });
  after(() => m.close());

  it('a worker holds at most maxClaimsPerWorker tasks in progress; others may still claim', async () => {
    const [a, b, c] = ids as [string, string, string];
    for (const id of [a, b]) assert.equal((await claimAs(m, id, SQUATTER)).status, 200);
    const third = await claimAs(m, c, SQUATTER);
    assert.deepEqual(
      [third.status, third.json()],
      [409, { detail: 'Worker already has 2 tasks in progress (at most 2): finish or report one first' }],
    );
    assert.equal((await taskOf(m, c)).status, 'pending');
    const honest = await claimAs(m, c, WORKER);
    assert.equal(honest.status, 200, honest.text);
    assert.equal(
      (honest.json() as { claim_expires_at: number }).claim_expires_at,
      m.service.books.chain_time + WINDOW,
    );
  });

  it('past the window the squatted tasks are pending again, and the squatter cannot claim them again', async () => {
    const [a, b, c] = ids as [string, string, string];
    const expires = (await taskOf(m, a)).claim_expires_at!;
    // The honest worker submits within its window; the squatter submits nothing.
    await submitResult(m, WORKER, c);
    await m.step();
    assert.equal((await taskOf(m, c)).status, 'completed', 'a result within the window completes the task');
    while (m.service.books.chain_time <= expires) {
      assert.equal((await taskOf(m, a)).status, 'in_progress', 'held until the window ends, not longer');
      await m.step();
    }
    for (const id of [a, b]) {
      const t = await taskOf(m, id);
      assert.equal(t.status, 'pending', 'the first block past the window ends the claim');
      assert.equal(t.worker_address, null);
      assert.equal(t.claim_expires_at, null);
      const again = await claimAs(m, id, SQUATTER);
      assert.deepEqual(
        [again.status, again.json()],
        [
          409,
          { detail: 'Your claim of this task lapsed without a result: a worker cannot claim a task again' },
        ],
      );
    }
    assert.ok(
      m.logger.lines.some(
        (l) => l.level === 'warn' && l.msg === 'a claim lapsed without a result: the task is pending again',
      ),
    );
  });

  it('an honest worker claims a lapsed task and completes it; its payouts are made', async () => {
    const [a] = ids as [string];
    assert.equal((await claimAs(m, a, OTHER_WORKER)).status, 200);
    await submitResult(m, OTHER_WORKER, a);
    await m.step();
    await m.step();
    const t = await taskOf(m, a);
    assert.equal(t.status, 'completed');
    assert.equal(t.result?.worker_address, OTHER_WORKER.account);
    assert.deepEqual(
      t.payouts.map((p) => p.status),
      ['confirmed', 'confirmed', 'confirmed', 'confirmed'],
    );
  });

  it('a claim lapses and a restart keeps the lapse: the squatter is still barred', async () => {
    const [, b] = ids as [string, string];
    await m.restart();
    assert.equal((await claimAs(m, b, SQUATTER)).status, 409);
    assert.equal((await claimAs(m, b, WORKER)).status, 200);
  });
});
