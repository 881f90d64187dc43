/**
 * The sample worker against a real market over a real node core, through its real clients: a
 * round cut short after the claim (the node out of reach) is finished at the next round, with
 * one SUBMIT_RESULT, rather than left in progress until the claim lapses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '../../../src/client/rpcClient.js';
import { MarketClient } from '../../../src/market/client.js';
import { type HeldTasks, runWorker, sampleResultHash, workTask } from '../../../src/market/worker.js';
import {
  CHAIN,
  type MarketHarness,
  makeMarketHarness,
  newTask,
  taskOf,
  WORKER,
} from '../../support/marketHarness.js';

describe('the sample worker', () => {
  let m: MarketHarness;
  let market: MarketClient;

  before(async () => {
    m = await makeMarketHarness();
    market = new MarketClient(await m.listen(), 5_000);
  });
  after(() => m.close());

  it('finishes a task it claimed when its node was out of reach, at the next round, with one result', async () => {
    const id = await newTask(m, 1000n);
    const held: HeldTasks = new Map();
    const logger = memoryLogger();
    const o = { market, key: WORKER.privateKey, pollMs: 20, logger, minTimeLeftSeconds: 0 };
    // Claimed, then no node to build and send the SUBMIT_RESULT through (nothing listens on port 1).
    const unreachable = new RpcClient('http://127.0.0.1:1', 1_000);
    const signal = new AbortController().signal;
    await assert.rejects(workTask({ ...o, rpc: unreachable, signal }, CHAIN, id, held));
    assert.equal((await taskOf(m, id)).status, 'in_progress');
    assert.deepEqual([...held], [[id, null]], 'the worker remembers the task it holds');

    // The next rounds, with the node back: the held task is worked, not only pending ones.
    const stop = new AbortController();
    const running = runWorker({ ...o, rpc: m.rpc, signal: stop.signal }, held);
    try {
      const done = await m.stepUntil(
        waitFor('the held task completed', 10_000, async () => {
          const t = await taskOf(m, id);
          return t.status === 'completed' ? t : null;
        }),
      );
      assert.equal(done.result?.worker_address, WORKER.account);
      assert.equal(done.result?.result_hash, sampleResultHash(done));
    } finally {
      stop.abort();
      await running;
    }
    assert.equal(held.size, 0);
    assert.equal(logger.lines.filter((l) => l.msg === 'result submitted').length, 1);
    assert.equal(m.h.service.state.accounts.get(WORKER.account)?.nonce, 1, 'one SUBMIT_RESULT on chain');
  });
});
