/**
 * The escrow's own payouts against those who would stall them (security review, issue 24): a
 * validator whose reward_address is the escrow itself, and a transfer from the escrow's key that
 * the market did not sign, taking the nonce of a planned payout. Every share is paid exactly
 * once and the escrow is right to the wei.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Level } from 'level';
import { BURN_ADDRESS, coins, TREASURY_ADDRESS, txHash } from '../../../src/chain/index.js';
import { splitReward } from '../../../src/market/split.js';
import {
  balanceOf,
  CHAIN,
  claimAs,
  ESCROW,
  FEE,
  type MarketHarness,
  makeMarketHarness,
  newTask,
  OTHER_WORKER,
  submitResult,
  taskOf as task,
  VALIDATOR,
  WORKER,
} from '../../support/marketHarness.js';

/** A task funded, claimed by WORKER and its result in a block: the split is planned. */
async function completedTask(m: MarketHarness, reward: bigint): Promise<string> {
  const id = await newTask(m, reward);
  const claimed = await claimAs(m, id, WORKER);
  assert.equal(claimed.status, 200, claimed.text);
  await submitResult(m, WORKER, id);
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

describe("a transfer from the escrow's key that the market did not sign", () => {
  /**
   * A task completed, its four payouts planned (nonces 0 to 3) but not sent yet; then someone
   * with the escrow's key sends a transfer with nonce 0, the burn share's. `seen` says whether
   * the market's follower applies the foreign transfer's block before the payer sends (the
   * block tells it) or after (the node's "bad nonce" refusal tells it).
   */
  async function takenNonce(seen: 'by the block' | 'by the refusal'): Promise<void> {
    const m = await makeMarketHarness();
    try {
      const reward = coins(2) + 3n;
      const id = await completedTask(m, reward);
      await m.h.produce(); // the result's block: applied, the plan made, nothing sent
      await m.follower.poll();
      const planned = (await task(m, id)).payouts;
      assert.equal(planned.length, 4);
      const escrowBefore = balanceOf(m, ESCROW.account);
      const burnedBefore = m.h.service.state.totals.burned;
      const otherBefore = balanceOf(m, OTHER_WORKER.account);
      const stolen = coins(1);
      const foreign = await m.sign(ESCROW, {
        type: 'TRANSFER',
        to: OTHER_WORKER.account,
        amount: stolen,
        nonce: 0,
      });
      assert.equal((await m.rpc.sendTx(foreign)).status, 'received');
      if (seen === 'by the refusal') await m.h.produce(); // in a block the market has not applied yet
      for (let i = 0; i < 4; i++) await m.step();
      const t = await task(m, id);
      assert.deepEqual(
        t.payouts.map((p) => [p.share, p.amount, p.status]),
        planned.map((p) => [p.share, p.amount, 'confirmed']),
        'every share paid',
      );
      assert.notEqual(t.payouts[0]!.tx_hash, planned[0]!.tx_hash, 'the burn share signed again');
      for (const p of t.payouts) assert.equal((await m.rpc.receipt(p.tx_hash)).status, 'confirmed');
      assert.notEqual((await m.rpc.receipt(planned[0]!.tx_hash).catch(() => null))?.status, 'confirmed');
      const [burn] = splitReward(reward, WORKER.account, [VALIDATOR.account]).map((p) => p.amount) as [
        bigint,
      ];
      assert.equal(m.h.service.state.totals.burned - burnedBefore, burn, 'burned once');
      assert.equal(
        m.h.service.state.accounts.get(ESCROW.account)?.nonce,
        5,
        'the foreign transfer and 4 payouts',
      );
      assert.equal(
        balanceOf(m, ESCROW.account),
        escrowBefore - reward - 4n * FEE - stolen - FEE,
        'the escrow: the reward out once, 4 fees, and what the foreign transfer took',
      );
      assert.equal(balanceOf(m, OTHER_WORKER.account), otherBefore + stolen);
      assert.equal(
        BigInt(m.service.books.balance),
        balanceOf(m, ESCROW.account),
        'the books hold the balance',
      );
      assert.equal(m.service.unpaid().length, 0);
      assert.ok(
        m.logger.lines.some(
          (l) => l.level === 'warn' && String(l.msg).includes('signed again with a fresh nonce'),
        ),
        'said at warn level',
      );
      // Nothing more is paid, whatever blocks come.
      for (let i = 0; i < 2; i++) await m.step();
      assert.equal(m.h.service.state.accounts.get(ESCROW.account)?.nonce, 5);
    } finally {
      await m.close();
    }
  }

  it("taking a planned payout's nonce (seen in a block): that payout is signed again with a fresh nonce, paid once", () =>
    takenNonce('by the block'));
  it("taking a planned payout's nonce (seen by the node's refusal first): the same", () =>
    takenNonce('by the refusal'));
});

describe('a store from before the market knew its own payouts', () => {
  it('a payout left planned though its transfer is in a block the market applied is confirmed at its next resend, never paid again', async () => {
    const m = await makeMarketHarness();
    try {
      const id = await completedTask(m, 4000n);
      await m.step(); // planned and sent
      await m.step(); // paid
      const paid = await task(m, id);
      const validator = paid.payouts.find((p) => p.share === 'validator')!;
      assert.equal(validator.status, 'confirmed');
      const nonce = m.h.service.state.accounts.get(ESCROW.account)?.nonce;
      // What a market before issue 24's fix left when that payout went to the escrow itself:
      // the payout still planned in a live task, its transfer long in a block.
      await m.restart(async (path) => {
        const db = new Level<string, string>(path, { valueEncoding: 'utf8' });
        await db.open();
        const tasks = db.sublevel<string, string>('tasks', { valueEncoding: 'utf8' });
        const t = JSON.parse((await tasks.get(id))!) as {
          payouts: { tx_hash: string; status: string; height: number | null }[];
        };
        for (const p of t.payouts)
          if (p.tx_hash === validator.tx_hash) Object.assign(p, { status: 'planned', height: null });
        await tasks.put(id, JSON.stringify(t));
        await db.sublevel<string, string>('live', { valueEncoding: 'utf8' }).put(id, '');
        await db.close();
      });
      assert.equal(m.service.unpaid().length, 1);
      await m.payer.run(); // the node refuses it for its nonce; its receipt says where it is
      const after = await task(m, id);
      assert.deepEqual(
        after.payouts.map((p) => [p.tx_hash, p.status, p.block_height]),
        paid.payouts.map((p) => [p.tx_hash, 'confirmed', p.block_height]),
        'the same signed payout, confirmed at the block that holds it',
      );
      assert.equal(m.service.unpaid().length, 0);
      for (let i = 0; i < 2; i++) await m.step();
      assert.equal(m.h.service.state.accounts.get(ESCROW.account)?.nonce, nonce, 'nothing paid again');
      assert.ok(m.logger.lines.some((l) => l.level === 'warn' && String(l.msg).includes('confirmed now')));
    } finally {
      await m.close();
    }
  });
});
