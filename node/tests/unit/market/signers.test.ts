/**
 * The validators' share counts each validator once, whatever the commit the market's node
 * serves (security review, issue 24, item 2): a validator repeated in GET /block/{h}/commit is
 * paid once, and a signer that is not a validator is left out with a warning instead of halting
 * the market's following for good.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RpcClient } from '../../../src/client/rpcClient.js';
import { Follower } from '../../../src/market/follower.js';
import { splitReward } from '../../../src/market/split.js';
import { key } from '../../fixtures.js';
import {
  claimAs,
  makeMarketHarness,
  newTask,
  submitResult,
  taskOf,
  VALIDATOR,
  WORKER,
} from '../../support/marketHarness.js';

const STRANGER = key('stranger');

describe("the commit's signers", () => {
  it('a repeated validator is paid once, an unknown signer left out with a warning; following goes on', async () => {
    const m = await makeMarketHarness();
    try {
      const reward = 1_000_003n;
      const id = await newTask(m, reward);
      const claimed = await claimAs(m, id, WORKER);
      assert.equal(claimed.status, 200, claimed.text);
      // The market's node now serves commits with val-0 twice and a stranger's signature.
      const rpc = new Proxy(m.rpc, {
        get(target, prop, receiver) {
          if (prop === 'commit')
            return async (h: number) => {
              const c = await target.commit(h);
              const first = c.signatures[0]!;
              return {
                ...c,
                signatures: [
                  first,
                  { ...first },
                  { validator: STRANGER.validator, signature: first.signature },
                ],
              };
            };
          const v = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      }) as RpcClient;
      m.follower = new Follower(rpc, m.service, m.logger, { pollMs: 1_000, maxBlocksPerPoll: 50 });
      await submitResult(m, WORKER, id);
      await m.step(); // the result's block, its commit as above
      assert.equal(m.follower.lastError, null, 'following did not stop');
      assert.equal(m.service.books.cursor, m.h.service.state.height);
      const t = await taskOf(m, id);
      assert.equal(t.status, 'completed');
      assert.deepEqual(
        t.payouts.map((p) => [p.share, p.to_address, p.amount]),
        splitReward(reward, WORKER.account, [VALIDATOR.account]).map((p) => [
          p.share,
          p.to,
          p.amount.toString(),
        ]),
        'one validator share, for val-0 once',
      );
      await m.step();
      assert.deepEqual(
        (await taskOf(m, id)).payouts.map((p) => p.status),
        ['confirmed', 'confirmed', 'confirmed', 'confirmed'],
      );
      const warned = m.logger.lines.filter((l) => l.level === 'warn').map((l) => [l.msg, l.validator]);
      assert.deepEqual(warned, [
        ['a validator signs a commit more than once: counted once', VALIDATOR.validator],
        ['a signer of a commit is not a validator: left out of the validators share', STRANGER.validator],
      ]);
      // The market still takes tasks (it would answer 503 while stuck).
      assert.equal((await taskOf(m, await newTask(m, 10n))).status, 'pending');
    } finally {
      await m.close();
    }
  });
});
