/**
 * The market's own client over a real socket, against a real market over a real node core: a
 * write the market answers 503 with Retry-After (docs/MARKET.md: not reaching its node, catching
 * up, a payment not final) is sent again as the market asks, and makes its task or claim once;
 * past the client's bound, or with no Retry-After to honour, the 503 is the caller's error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RpcError } from '../../../src/client/jsonHttp.js';
import { MarketClient } from '../../../src/market/client.js';
import {
  CHAIN,
  CREATOR,
  type MarketHarness,
  makeMarketHarness,
  newTask,
  taskOf,
  WORKER,
} from '../../support/marketHarness.js';

const BEHIND = 'Catching up with the chain: 12 blocks behind its node';

/** The market refuses writes (503, Retry-After: 2) for the next `times` requests that ask. */
function unavailableFor(m: MarketHarness, times: number): { asked: () => number } {
  let asked = 0;
  Object.defineProperty(m, 'unavailable', {
    configurable: true,
    get: () => (asked++ < times ? BEHIND : null),
    set: () => undefined,
  });
  return { asked: () => asked };
}

function available(m: MarketHarness): void {
  Object.defineProperty(m, 'unavailable', { configurable: true, writable: true, value: null });
}

describe('MarketClient: writes answered 503 with Retry-After', () => {
  let m: MarketHarness;
  let url = '';

  before(async () => {
    m = await makeMarketHarness();
    url = await m.listen();
  });
  after(() => m.close());

  it('createTask sends the same body again after a 503 and gets the task, made once', async () => {
    const client = new MarketClient(url, 10_000, 30_000);
    const before = (await client.tasks()).total;
    const body = await m.order({ reward: 21n });
    const refusals = unavailableFor(m, 1);
    try {
      const created = await m.stepUntil(client.createTask(body));
      assert.equal(refusals.asked(), 2, 'refused once, then taken');
      assert.equal(created.status, 'pending');
      const t = await taskOf(m, created.task_id);
      assert.equal(t.creator_address, CREATOR.account);
      assert.equal(t.reward, '21');
      assert.equal((await client.tasks()).total, before + 1);
    } finally {
      available(m);
    }
  });

  it('claim is sent again after a 503 and claims the task once', async () => {
    const id = await newTask(m);
    const refusals = unavailableFor(m, 2);
    try {
      const claimed = await new MarketClient(url, 10_000, 30_000).claim(id, CHAIN, WORKER.privateKey);
      assert.equal(refusals.asked(), 3, 'refused twice, then taken');
      assert.equal(claimed.status, 'in_progress');
      assert.equal(claimed.worker_address, WORKER.account);
      assert.equal((await taskOf(m, id)).worker_address, WORKER.account);
    } finally {
      available(m);
    }
  });

  it('past the bound (here shorter than Retry-After) the 503 is the error, with its Retry-After', async () => {
    const body = await m.order({ reward: 22n });
    unavailableFor(m, Number.POSITIVE_INFINITY);
    try {
      for (const within of [0, 1_000]) {
        const e = await new MarketClient(url, 10_000, within).createTask(body).then(
          () => assert.fail('answered'),
          (err: unknown) => err,
        );
        assert.ok(e instanceof RpcError, String(e));
        assert.equal(e.status, 503);
        assert.equal(e.detail, BEHIND);
        assert.equal(e.retryAfterMs, 2_000);
      }
      assert.equal(m.h.service.mempoolSize, 0, 'nothing was sent');
    } finally {
      available(m);
    }
  });
});
