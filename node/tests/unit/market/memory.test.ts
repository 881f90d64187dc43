/**
 * Memory holds what is live (issue 24, item 4): a settled task whose payouts are all confirmed
 * leaves memory, and GET /tasks and GET /tasks/{task_id} answer it from the store with the same
 * shapes, order and pagination, before and after a restart, and from a store written before the
 * store had its indexes (version 1: they are built at the first start).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Level } from 'level';
import type { TaskAnswer, TaskListAnswer } from '../../../src/market/answers.js';
import {
  claimAs,
  type MarketHarness,
  makeMarketHarness,
  newTask,
  submitResult,
  taskOf,
  WORKER,
} from '../../support/marketHarness.js';

describe('settled tasks leave memory; reads find them in the store', () => {
  // Payloads are never in memory: a task's is read from the store when GET /tasks/{id} shows it.
  let m: MarketHarness;
  let ids: string[];
  const answers = async () => {
    const all: [string, TaskListAnswer | TaskAnswer][] = [];
    for (const q of [
      '',
      '?status=completed',
      '?status=pending&challenge_type=inference',
      '?limit=1&offset=1',
      '?offset=3',
    ])
      all.push([q, (await m.request('GET', `/tasks${q}`)).json() as TaskListAnswer]);
    for (const id of ids) all.push([id, await taskOf(m, id)]);
    return all;
  };
  before(async () => {
    m = await makeMarketHarness();
    ids = [];
    for (let i = 0; i < 3; i++) ids.push(await newTask(m, 1000n + BigInt(i)));
  });
  after(() => m.close());

  it('a completed task whose payouts are all confirmed leaves memory, and is answered the same', async () => {
    const done = ids[1]!;
    assert.equal((await claimAs(m, done, WORKER)).status, 200);
    await submitResult(m, WORKER, done);
    await m.step(); // completed, planned
    assert.equal(m.service.liveCount, 3, 'planned payouts keep it live');
    await m.step(); // paid
    assert.equal(m.service.liveCount, 2, 'settled and paid: out of memory');
    assert.equal(m.service.knows(done), false);
    const t = await taskOf(m, done);
    assert.equal(t.status, 'completed');
    assert.deepEqual(
      t.payouts.map((p) => p.status),
      ['confirmed', 'confirmed', 'confirmed', 'confirmed'],
    );
    const list = (await m.request('GET', '/tasks')).json() as TaskListAnswer;
    assert.deepEqual(
      list.tasks.map((x) => [x.task_id, x.status, x.reward]),
      [
        [ids[0], 'pending', '1000'],
        [done, 'completed', '1001'],
        [ids[2], 'pending', '1002'],
      ],
    );
    assert.equal(list.total, 3);
    const page = (await m.request('GET', '/tasks?status=pending&limit=1&offset=1')).json() as TaskListAnswer;
    assert.deepEqual([page.tasks.map((x) => x.task_id), page.total], [[ids[2]], 2]);
    const again = await claimAs(m, done, WORKER);
    assert.deepEqual(
      [again.status, again.json()],
      [409, { detail: 'Task is completed: it cannot be claimed' }],
    );
  });

  it('a restart answers the same, and loads only the live tasks', async () => {
    const before = await answers();
    const float = m.service.float();
    await m.restart();
    assert.equal(m.service.liveCount, 2);
    assert.deepEqual(await answers(), before);
    assert.equal(m.service.float(), float);
  });

  it('a store of version 1 (no indexes) gets them at its first start, and answers the same', async () => {
    const before = await answers();
    const float = m.service.float();
    await m.restart(async (path) => {
      // What a market before issue 24 left: every task in `tasks`, the books; no indexes.
      const db = new Level<string, string>(path, { valueEncoding: 'utf8' });
      await db.open();
      for (const name of ['live', 'list', 'open']) await db.sublevel(name).clear();
      // Version 1 kept each payload in its task.
      const tasks = db.sublevel<string, string>('tasks', { valueEncoding: 'utf8' });
      const payloads = db.sublevel<string, string>('payloads', { valueEncoding: 'utf8' });
      for await (const [id, raw] of tasks.iterator()) {
        const payload = JSON.parse((await payloads.get(id))!) as unknown;
        await tasks.put(id, JSON.stringify({ ...JSON.parse(raw), payload }));
      }
      await payloads.clear();
      const meta = db.sublevel<string, string>('meta', { valueEncoding: 'utf8' });
      await meta.del('version');
      await meta.del('tallies');
      await db.close();
    });
    assert.equal(m.service.liveCount, 2);
    assert.deepEqual(await answers(), before);
    assert.equal(m.service.float(), float);
    assert.deepEqual(Object.keys(m.service.paid()).sort(), ['burn', 'treasury', 'validator', 'worker']);
  });
});
