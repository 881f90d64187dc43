/**
 * The escrow's own payouts against those who would stall them (security review, issue 24): a
 * validator whose reward_address is the escrow itself, and a transfer from the escrow's key that
 * the market did not sign, taking the nonce of a planned payout. Every share is paid exactly
 * once and the escrow is right to the wei.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BURN_ADDRESS, coins, TREASURY_ADDRESS, txHash } from '../../src/chain/index.js';
import type { CreateTaskAnswer, TaskAnswer } from '../../src/market/answers.js';
import { signStatement } from '../../src/market/claims.js';
import { splitReward } from '../../src/market/split.js';
import { ESCROW, FEE, type MarketHarness, makeMarketHarness, VALIDATOR, WORKER } from './marketHarness.js';

const CHAIN = 'chain-devnet-1';
const balanceOf = (m: MarketHarness, a: string) => m.h.service.state.accounts.get(a)?.balance ?? 0n;
const task = async (m: MarketHarness, id: string) =>
  (await m.request('GET', `/tasks/${id}`)).json() as TaskAnswer;

/** A task funded, claimed by WORKER and its result in a block: the split is planned. */
async function completedTask(m: MarketHarness, reward: bigint): Promise<string> {
  const res = await m.create(await m.order({ reward }));
  assert.equal(res.status, 201, res.text);
  const id = (res.json() as CreateTaskAnswer).task_id;
  const claimed = await m.request(
    'POST',
    `/tasks/${id}/claim`,
    signStatement('claim', CHAIN, id, WORKER.privateKey),
  );
  assert.equal(claimed.status, 200, claimed.text);
  const tx = await m.sign(WORKER, {
    type: 'SUBMIT_RESULT',
    payload: { taskId: id, resultHash: 'ab'.repeat(32) },
  });
  assert.equal((await m.rpc.sendTx(tx)).status, 'received');
  return id;
}

describe('a validator whose reward_address is the escrow', () => {
  it('cannot hold a payout: its share goes to the treasury, every payout confirmed, also after a restart', async () => {
    const m = await makeMarketHarness();
    try {
      const update = await m.sign(VALIDATOR, {
        type: 'UPDATE_VALIDATOR',
        payload: { rewardAddress: ESCROW.account },
      });
      assert.equal((await m.rpc.sendTx(update)).status, 'received');
      await m.step();
      assert.equal((await m.rpc.receipt(txHash(update, CHAIN))).status, 'confirmed');
      const reward = coins(3) + 7n;
      const booksBefore = BigInt(m.service.books.balance);
      const treasuryBefore = m.h.service.state.totals.treasury;
      const burnedBefore = m.h.service.state.totals.burned;
      const ids: string[] = [];
      // More tasks than the payer keeps in flight would once have stalled it for good.
      for (let i = 0; i < 3; i++) ids.push(await completedTask(m, reward));
      await m.step(); // the results' block: the splits planned and sent
      await m.step(); // the payouts' block
      await m.restart();
      await m.step();
      const [burn, worker, validator, treasury] = splitReward(reward, WORKER.account, [ESCROW.account]).map(
        (p) => p.amount,
      ) as [bigint, bigint, bigint, bigint];
      for (const id of ids) {
        const t = await task(m, id);
        assert.deepEqual(
          t.payouts.map((p) => [p.share, p.to_address, p.amount, p.status]),
          [
            ['burn', BURN_ADDRESS, burn.toString(), 'confirmed'],
            ['worker', WORKER.account, worker.toString(), 'confirmed'],
            ['treasury', TREASURY_ADDRESS, (treasury + validator).toString(), 'confirmed'],
          ],
          'no payout from the escrow to itself: the validator share with the treasury',
        );
      }
      assert.equal(m.service.unpaid().length, 0);
      assert.equal(m.h.service.state.accounts.get(ESCROW.account)?.nonce, 9, 'exactly 3 payouts a task');
      assert.equal(m.h.service.state.totals.treasury - treasuryBefore, 3n * (treasury + validator));
      assert.equal(m.h.service.state.totals.burned - burnedBefore, 3n * burn);
      // By transactions the escrow received 3 rewards and paid them out with 9 fees from the
      // float; the block rewards the validator now earns into the escrow come by no transaction
      // and the books leave them out (the float is only understated).
      assert.equal(BigInt(m.service.books.balance), booksBefore - 9n * FEE);
      assert.ok(balanceOf(m, ESCROW.account) > BigInt(m.service.books.balance));
    } finally {
      await m.close();
    }
  });
});
