/**
 * POST /tasks' wait for its payment (funding.ts) against a node that accepts connections and
 * never answers (a node too loaded to answer, with the market's RPC client waiting far longer):
 * the wait still ends at its bound with `not_final` (the POST's 503, to be sent again), and the
 * same request to a node that answers then makes the task.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RpcClient } from '../../../src/client/rpcClient.js';
import { checkFunding, settleFunding } from '../../../src/market/funding.js';
import type { Terms } from '../../../src/market/terms.js';
import { ESCROW, INFERENCE, type MarketHarness, makeMarketHarness } from '../../support/marketHarness.js';

describe('the wait for a task payment', () => {
  let m: MarketHarness;
  let silent: Server;
  const held: Socket[] = [];
  let silentUrl = '';

  before(async () => {
    m = await makeMarketHarness();
    // Takes every connection and says nothing.
    silent = createServer((s) => held.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  after(async () => {
    for (const s of held) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await m.close();
  });

  // Without the bound the first wait would last the RPC client's ten minutes: this fails first.
  it('ends at its bound with not_final while the node does not answer; then the task is made', {
    timeout: 30_000,
  }, async () => {
    const body = await m.order({ reward: 31n });
    const terms: Terms = { challengeType: 'inference', payload: INFERENCE, reward: 31n, deadline: null };
    const funding = checkFunding(body.funding, terms, ESCROW.account, m.service.escrow.chainId);
    assert.ok(funding.ok);
    const intake = await m.service.intake(terms, funding.tx);
    assert.equal(intake.kind, 'task');
    const task = intake.kind === 'task' ? intake.task : assert.fail();
    assert.equal(task.status, 'funding');

    // The RPC client would wait ten minutes; the funding wait is 200 ms.
    const hung = new RpcClient(silentUrl, 600_000);
    assert.deepEqual(await settleFunding(m.service, hung, task, true, 200), { kind: 'not_final' });
    assert.equal(m.h.service.mempoolSize, 0, 'nothing reached the node');

    const settled = await m.stepUntil(settleFunding(m.service, m.rpc, task, true, 10_000));
    assert.equal(settled.kind, 'task');
    assert.equal(settled.kind === 'task' ? settled.task.status : null, 'pending');
  });
});
