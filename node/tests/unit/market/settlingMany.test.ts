/**
 * Many tasks settling in one block (issue 24, item 4): 300 tasks share a deadline; the block
 * past it fails them all, plans (signs) the first 256 refunds and the rest at the next block, in
 * the order they settled. Every refund is planned once with its own nonce, paid once, and the
 * books are exact to the wei; paid tasks leave memory. MarketService over a real level store,
 * the blocks made here.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { signTx, type Tx, txHash } from '../../../src/chain/index.js';
import { MAX_PLANS_PER_BLOCK } from '../../../src/market/block/block.js';
import { DEFAULT_RULES } from '../../../src/market/rules.js';
import { MarketService } from '../../../src/market/service.js';
import { MarketStore } from '../../../src/market/store.js';
import { CHAIN, CREATOR, ESCROW, FEE, INFERENCE } from '../../support/marketHarness.js';

const T0 = 1_700_000_000;
const TASKS = 300;
const FLOAT = 10n ** 18n;

describe('many tasks settling at one deadline', () => {
  it('are failed in one block, their refunds planned 256 a block in settling order, each paid once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chain-market-many-'));
    const store = await MarketStore.open(join(dir, 'market-data'));
    try {
      const escrow = { address: ESCROW.account, privateKey: ESCROW.privateKey, chainId: CHAIN, fee: FEE };
      const s = await MarketService.open(store, escrow, DEFAULT_RULES, async () => ({
        chain_id: CHAIN,
        escrow: ESCROW.account,
        cursor: 1,
        balance: FLOAT.toString(),
        next_nonce: 0,
        chain_time: T0,
      }));
      let height = 1;
      const block = (at: number, txs: { tx: Tx; hash: string }[]) =>
        s.applyBlock({
          height: ++height,
          timestamp: at,
          txs: txs.map((t) => ({ ...t, outcome: 'confirmed' as const })),
          signers: null,
        });
      const payments: { tx: Tx; hash: string }[] = [];
      let rewards = 0n;
      for (let i = 0; i < TASKS; i++) {
        const reward = 1_000n + BigInt(i);
        rewards += reward;
        const terms = { challengeType: 'inference' as const, payload: INFERENCE, reward, deadline: T0 + 10 };
        const tx = signTx(
          {
            type: 'TRANSFER',
            from: CREATOR.account,
            to: ESCROW.account,
            amount: reward,
            fee: FEE,
            nonce: i,
            gasPrice: 0,
            gasLimit: 0,
            timestamp: T0,
            payload: { memo: `market:${i}` },
          },
          CREATOR.privateKey,
          CHAIN,
        );
        const r = await s.intake(terms, tx);
        assert.equal(r.kind, 'task');
        payments.push({ tx, hash: txHash(tx, CHAIN) });
      }
      await block(T0 + 1, payments);
      assert.equal(s.float(), FLOAT, 'the rewards are owed, the float untouched');

      await block(T0 + 11, []); // past the deadline
      const first = s.unpaid();
      assert.equal(first.length, MAX_PLANS_PER_BLOCK);
      assert.deepEqual(
        first.map((p) => p.nonce),
        Array.from({ length: MAX_PLANS_PER_BLOCK }, (_v, i) => i),
      );
      const { tasks } = await s.list({ status: 'failed' }, 0, 100);
      assert.equal((await s.list({ status: 'failed' }, 0, 1)).total, TASKS, 'all failed in that block');
      assert.equal(tasks.length, 100);

      const pay = (ps: typeof first) =>
        block(
          T0 + 12 + height,
          ps.map((p) => ({
            tx: {
              ...payments[0]!.tx,
              from: ESCROW.account,
              to: CREATOR.account,
              amount: BigInt(p.amount),
              nonce: p.nonce,
            },
            hash: p.tx_hash,
          })),
        );
      await pay(first);
      const second = s.unpaid();
      assert.deepEqual(
        second.map((p) => p.nonce),
        Array.from({ length: TASKS - MAX_PLANS_PER_BLOCK }, (_v, i) => MAX_PLANS_PER_BLOCK + i),
        'the rest at the next block, the nonces following',
      );
      await pay(second);
      assert.equal(s.unpaid().length, 0);
      assert.equal(s.liveCount, 0, 'settled and paid: none left in memory');
      let refunded = 0n;
      const nonces = new Set<number>();
      for (const summary of await store.page({ status: 'failed' }, 0, TASKS)) {
        const t = (await s.task(summary.task_id))!;
        assert.equal(t.payouts.length, 1);
        const [p] = t.payouts as [(typeof t.payouts)[number]];
        assert.deepEqual(
          [p.share, p.to_address, p.amount, p.status],
          ['refund', CREATOR.account, t.reward, 'confirmed'],
        );
        refunded += BigInt(p.amount);
        nonces.add(p.nonce);
      }
      assert.equal(refunded, rewards, 'each reward refunded once');
      assert.equal(nonces.size, TASKS);
      assert.equal(BigInt(s.books.balance), FLOAT - BigInt(TASKS) * FEE, 'the escrow: only the fees spent');
      assert.equal(s.float(), FLOAT - BigInt(TASKS) * FEE);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
