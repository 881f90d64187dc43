/**
 * The sample worker against a real market over a real node core, through its real clients: a
 * round cut short after the claim (the node out of reach, the claim's answer lost, the receipt
 * not in a block yet) is finished at the next round, with one SUBMIT_RESULT, and a worker started
 * again takes up the claims the market shows it holds, rather than leave them in progress until
 * the claim lapses (e2e scenario 12 on docker: a task claimed, never completed, 219 s).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import { failoverRpc } from '../../../src/client/failover.js';
import { RpcUnreachableError } from '../../../src/client/jsonHttp.js';
import { RpcClient } from '../../../src/client/rpcClient.js';
import type { ClaimAnswer } from '../../../src/market/answers.js';
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

/** A market client whose claims reach the market, which records them, but whose answers are lost. */
class AnswerLost extends MarketClient {
  override async claim(id: string, chainId: string, workerKey: Uint8Array): Promise<ClaimAnswer> {
    await super.claim(id, chainId, workerKey);
    throw new RpcUnreachableError(`${this.baseUrl}/tasks/${id}/claim`, 'no answer within 10000 ms', null);
  }
}

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

  /** Runs the worker from `held` until task `id` is completed; the completed task. */
  async function completes(id: string, held: HeldTasks, logger = memoryLogger()) {
    const stop = new AbortController();
    const o = { market, key: WORKER.privateKey, pollMs: 20, logger, minTimeLeftSeconds: 0 };
    const running = runWorker({ ...o, rpc: m.rpc, signal: stop.signal }, held);
    try {
      return await m.stepUntil(
        waitFor(`task ${id} completed`, 10_000, async () => {
          const t = await taskOf(m, id);
          return t.status === 'completed' ? t : null;
        }),
      );
    } finally {
      stop.abort();
      await running;
    }
  }

  it('finishes a task whose claim the market recorded but whose answer never came back', async () => {
    const id = await newTask(m, 1000n);
    const held: HeldTasks = new Map();
    const o = { market: new AnswerLost(market.baseUrl, 5_000), key: WORKER.privateKey, pollMs: 20 };
    const signal = new AbortController().signal;
    await assert.rejects(workTask({ ...o, rpc: m.rpc, logger: memoryLogger(), signal }, CHAIN, id, held));
    // In progress at the market, so in no list of pending tasks: only the worker's memory has it.
    assert.equal((await taskOf(m, id)).status, 'in_progress');
    assert.deepEqual([...held], [[id, null]], 'the worker holds the task it sent a claim for');
    const done = await completes(id, held);
    assert.equal(done.result?.worker_address, WORKER.account);
    assert.equal(held.size, 0);
  });

  it('a worker started again takes up the claims the market shows it holds', async () => {
    const id = await newTask(m, 1000n);
    await market.claim(id, CHAIN, WORKER.privateKey);
    const nonce = m.h.service.state.accounts.get(WORKER.account)?.nonce ?? 0;
    const logger = memoryLogger();
    // Nothing remembered: the worker's process is a new one.
    const done = await completes(id, new Map(), logger);
    assert.equal(done.result?.worker_address, WORKER.account);
    assert.equal(done.result?.result_hash, sampleResultHash(done));
    assert.ok(logger.lines.some((l) => String(l.msg).startsWith('the market shows a claim of this worker')));
    assert.equal(m.h.service.state.accounts.get(WORKER.account)?.nonce, nonce + 1, 'one SUBMIT_RESULT');
  });

  it('holds a task whose result is not in a block when the round stops waiting, and waits again', async () => {
    const id = await newTask(m, 1000n);
    const held: HeldTasks = new Map();
    const signal = new AbortController().signal;
    const o = { market, rpc: m.rpc, key: WORKER.privateKey, pollMs: 20, logger: memoryLogger(), signal };
    // No block is made meanwhile: the SUBMIT_RESULT stays pending past the round's wait.
    assert.equal(await workTask({ ...o, receiptWaitMs: 200 }, CHAIN, id, held), true);
    const sent = held.get(id);
    assert.ok(
      typeof sent === 'string',
      `the task is held with its SUBMIT_RESULT: ${JSON.stringify([...held])}`,
    );
    const nonce = m.h.service.state.accounts.get(WORKER.account)?.nonce ?? 0;
    const done = await completes(id, held);
    assert.equal(done.result_tx_hash, sent, 'the SUBMIT_RESULT sent first completed it, none sent again');
    assert.equal(m.h.service.state.accounts.get(WORKER.account)?.nonce, nonce + 1);
  });

  it('leaves alone a task whose result is in a block while the market, following the chain, still shows it in progress', async () => {
    const id = await newTask(m, 1000n);
    const held: HeldTasks = new Map();
    const stop = new AbortController();
    const logger = memoryLogger();
    const nonce = m.h.service.state.accounts.get(WORKER.account)?.nonce ?? 0;
    const o = { market, rpc: m.rpc, key: WORKER.privateKey, pollMs: 20, logger, minTimeLeftSeconds: 0 };
    const running = runWorker({ ...o, signal: stop.signal }, held);
    try {
      // Blocks made, the market's follower not polled: the SUBMIT_RESULT is in a block the market
      // has not read, as between two of a real follower's polls.
      await waitFor('the SUBMIT_RESULT in a block', 10_000, async () => {
        if (m.h.service.mempoolSize > 0) await m.h.produce();
        return (m.h.service.state.accounts.get(WORKER.account)?.nonce ?? 0) > nonce && held.size === 0;
      });
      assert.equal((await taskOf(m, id)).status, 'in_progress', 'the market has not seen the block');
      await new Promise((r) => setTimeout(r, 300)); // a dozen of the worker's rounds
      await m.step();
      assert.equal((await taskOf(m, id)).status, 'completed');
    } finally {
      stop.abort();
      await running;
    }
    const warned = logger.lines.filter((l) => l.level === 'warn');
    assert.equal(warned.length, 0, `nothing taken up again: ${JSON.stringify(warned)}`);
    await m.h.produce(); // anything sent again would be in this block
    assert.equal(m.h.service.state.accounts.get(WORKER.account)?.nonce, nonce + 1, 'one SUBMIT_RESULT');
  });

  it('works a task through another node while its first node gives no answer (failoverRpc)', async () => {
    const id = await newTask(m, 1000n);
    const held: HeldTasks = new Map();
    const stop = new AbortController();
    const logger = memoryLogger();
    const o = { market, key: WORKER.privateKey, pollMs: 20, logger, minTimeLeftSeconds: 0 };
    // The first node's name does not resolve (as a container's once did), the second is the chain's.
    const rpc = failoverRpc(['http://no-such-node.invalid:8000', m.rpc.baseUrl], 2_000);
    const running = runWorker({ ...o, rpc, signal: stop.signal }, held);
    try {
      const done = await m.stepUntil(
        waitFor(`task ${id} completed`, 10_000, async () => {
          const t = await taskOf(m, id);
          return t.status === 'completed' ? t : null;
        }),
      );
      assert.equal(done.result?.worker_address, WORKER.account);
    } finally {
      stop.abort();
      await running;
    }
    const warned = logger.lines.filter((l) => l.level === 'warn');
    assert.equal(warned.length, 0, `no round failed: ${JSON.stringify(warned)}`);
  });
});
