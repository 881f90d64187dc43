/**
 * Time under the tester's hand (issue 42) on a real devnet of 4 validators and the task market,
 * the same steps on each runtime, every block decided by the validators through consensus
 * (docs/RULES.md, "Chain time under the control"): a held chain (no new height for 30 s, a
 * transaction accepted and pending, nobody missing a slot or jailed after), a block time changed
 * at run time, a chain-time jump that expires a pending transaction exactly at its TTL and a
 * market task at the first block after its deadline (refunded), `mine --until-epoch`, `mine 250`
 * across two epoch boundaries with the stopped validator jailed at the first, and clocks skewed
 * +10 s (the manifest's clock_skew) and -10 s (devnet clock) with the chain going on in round 0.
 * The transitions are read from the chain's history (commits' rounds, timestamps, the market's
 * failed_at), never caught in flight. The whole-history invariants hold at the end (Testnet.stop).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { fundedRequest, MarketClient } from '@chain-devnet/node/market';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import { COIN, Testnet, Wallet } from '../../src/testkit/index.js';

/** Short enough that the absent validator's missed slots (3 s each) stay few, long enough to cross two in 250 blocks. */
const EPOCH = 50;
const TTL_S = 3600;
/** Below the sample worker's --min-time-left (30 s): it leaves the task to its deadline. */
const DEADLINE_S = 25;

/** The suite on `runtime`; `skip` a reason to skip it (no engine outside CI), or false. */
export function chainTimeSuite(runtime: RuntimeKind, skip: string | false = false): void {
  const name = `chain-time-${runtime}`;
  describe(`chain time on the ${runtime} runtime`, { skip }, () => {
    let net: Testnet | undefined;
    let failed = false;
    before(
      async () => {
        net = await Testnet.start({
          manifest: {
            validators: [{}, {}, { clock_skew: '+10s' }, {}],
            block_time: '400ms',
            epoch_length: EPOCH,
            market: true,
            seed: name,
          },
          runtime,
          name,
        });
      },
      { timeout: 420_000 },
    );
    after(() => net?.stop({ failed }), { timeout: 300_000 });
    const started = (): Testnet => {
      if (net === undefined) throw new Error(`${name}: the testnet did not start`);
      return net;
    };
    const step = (what: string, body: (n: Testnet) => Promise<void>, timeout = 240_000) =>
      test(what, { timeout }, async () => {
        try {
          await started().step(what, () => body(started()));
        } catch (e) {
          failed = true;
          throw e;
        }
      });
    const round = async (n: Testnet, h: number) => (await n.node('validator-0').rpc.commit(h)).round;
    const timestamp = async (n: Testnet, h: number) =>
      (await n.chain.block('validator-0', h)).header.timestamp;
    const top = (n: Testnet) => n.chain.maxHeight();

    step(
      'held: no new height for 30 s, a transaction accepted and pending; after, round 0 and nobody jailed',
      async (n) => {
        const held = await n.time.pause();
        const sent = await n.tx('TRANSFER', {
          from: 'account-0',
          to: 'account-1',
          amount: '1coin',
          wait: false,
        });
        assert.equal(sent.submit.status, 'received');
        await new Promise((r) => setTimeout(r, 30_000));
        assert.equal(await top(n), held, 'no height while held');
        assert.equal((await n.chain.receipt('validator-1', sent.tx_hash))?.status, 'pending');
        for (const name of n.net.names())
          assert.ok(
            (await n.node(name).rpc.status()).mempool_size >= 1,
            `${name} has the transaction (gossiped)`,
          );
        await n.time.resume();
        await n.chain.confirmedEverywhere(sent.tx_hash);
        await n.waitBlocks(4);
        for (let h = held + 1; h <= held + 4; h++)
          assert.equal(await round(n, h), 0, `height ${h} decided in round 0`);
        for (const v of (await n.chain.validators('validator-0')).validators)
          assert.equal(v.status, 'ACTIVE', `${v.address} after the hold`);
      },
    );

    step('a block time set at run time paces the next heights, and back', async (n) => {
      await n.time.blockTime(3_000);
      // Every node now enters each height 3 s after it entered the one before (consensus/pace.ts):
      // 6 heights take at least 4 of those waits whatever the machine (the height in progress and the
      // next may be entered early). A lower bound: a slow machine only lengthens it. Not read from
      // block timestamps: validator-2's clock is 10 s ahead, and the blocks after one it proposed
      // carry its timestamp while their proposers' clocks are behind it (RULES "Block timestamps").
      const since = Date.now();
      const from = await top(n);
      await n.chain.waitHeight(from + 6, n.net.names(), 40);
      const tookMs = Date.now() - since;
      assert.ok(tookMs >= 4 * 3_000, `6 heights in ${tookMs} ms at a 3 s block time`);
      await n.time.blockTime(null);
      const back = Date.now();
      const at = await top(n);
      await n.chain.waitHeight(at + 6, n.net.names(), 20);
      n.log(
        `6 heights at 3 s in ${tookMs} ms, then 6 at the genesis's block time in ${Date.now() - back} ms`,
      );
    });

    step('a chain-time jump expires a pending transaction exactly at its TTL', async (n) => {
      const pausedAt = Date.now();
      const held = await n.time.pause();
      const sent = await n.tx('TRANSFER', {
        from: 'account-2',
        to: 'account-1',
        amount: '1coin',
        wait: false,
      });
      const sentAt = Date.now();
      // Just short of the TTL: still pending everywhere.
      await n.time.advance((TTL_S - 30) * 1000);
      for (const name of n.net.names())
        assert.equal(
          (await n.chain.receipt(name, sent.tx_hash))?.status,
          'pending',
          `${name} before the TTL`,
        );
      // Past it (the seconds since sending included): expired at the jump's cleanup, on every node.
      await n.time.advance(31_000 + (Date.now() - sentAt));
      for (const name of n.net.names()) {
        const r = await n.chain.receipt(name, sent.tx_hash);
        assert.equal(r?.status, 'failed', `${name} after the TTL`);
        assert.equal(r?.error, 'expired');
      }
      const offset = (await n.node('validator-0').rpc.chainControl()).control.time_offset_ms;
      const resumedAt = Date.now();
      await n.time.resume();
      // The block of the height in progress at the hold may have been proposed before the jump;
      // the one after it was proposed after: at the proposer's clock (this machine's) plus the offset.
      await n.chain.waitHeight(held + 3, n.net.names(), 30);
      const at = await timestamp(n, held + 2);
      assert.ok(
        at >= Math.floor((resumedAt + offset) / 1000),
        `block ${held + 2} at ${at}, the clock then + ${offset} ms`,
      );
      const around = await Promise.all([held - 1, held, held + 1, held + 2].map((h) => timestamp(n, h)));
      const facts = `timestamps ${around.join(', ')} of ${held - 1}..${held + 2}; paused at ${Math.floor(pausedAt / 1000)}, resumed at ${Math.floor(resumedAt / 1000)}, offset ${offset}`;
      // Not asserted against the held block's own timestamp: validator-2's clock is 10 s ahead (the
      // manifest), so a block it proposed, and those after it whose proposers' clocks are behind it
      // (which take their parent's timestamp: RULES "Block timestamps"), can be up to 10 s ahead.
      n.log(facts);
    });

    step(
      'a chain-time jump fails a market task at the first block after its deadline, and refunds it',
      async (n) => {
        const client = new MarketClient(n.market!, 30_000);
        const creator = Wallet.random('creator');
        await n.txs.fund(n.txs.faucet(), [creator], 10n * COIN, 'validator-0');
        const reward = 2n * COIN + 1n;
        const rpc = n.node('validator-1').rpc;
        const info = await client.info();
        const task = await client.createTask(
          await fundedRequest(rpc, info, creator.privateKey, {
            challenge_type: 'inference',
            payload: { model_id: 'llama-3-8b', prompt: 'chain time', max_tokens: 8 },
            reward,
            deadline: (await client.info()).chain_time + DEADLINE_S,
          }),
        );
        const held = await n.time.pause();
        // The market has applied the held height: its chain time is that block's, and stands.
        const seen = await waitFor('the market at the held height', n.within(10), async () => {
          const i = await client.info();
          return i.height >= held ? i : null;
        });
        const t = await client.task(task.task_id);
        assert.equal(
          t.status,
          'pending',
          `the task at chain time ${seen.chain_time}, its deadline ${t.deadline}`,
        );
        assert.ok(seen.chain_time <= t.deadline);
        await n.time.advance(60_000);
        const mined = await n.time.mine(2);
        const failedTask = await waitFor(`task ${task.task_id} failed`, n.within(10), async () => {
          const a = await client.task(task.task_id);
          return a.status === 'failed' ? a : null;
        });
        assert.equal(failedTask.failure?.reason, 'deadline');
        // failed_at is the time of the first block whose time is after the deadline (docs/MARKET.md).
        const times = await Promise.all([held, ...mined].map((h) => timestamp(n, h)));
        const first = times.findIndex((ts) => ts > t.deadline);
        assert.ok(
          first > 0,
          `block times ${times.join(', ')} of ${held}..${mined.at(-1)}, deadline ${t.deadline}`,
        );
        assert.equal(failedTask.failure?.failed_at, times[first], `block times ${times.join(', ')}`);
        await n.time.resume();
        const refunded = await waitFor(`task ${task.task_id} refunded`, n.within(20), async () => {
          const a = await client.task(task.task_id);
          return a.payouts.length > 0 && a.payouts.every((p) => p.status === 'confirmed') ? a : null;
        });
        assert.deepEqual(
          refunded.payouts.map((p) => [p.share, p.to_address, p.amount]),
          [['refund', creator.address, reward.toString()]],
        );
      },
    );

    step('mine --until-epoch: every node at the epoch boundary, epoch shown', async (n) => {
      // Held while the target is chosen: the step before resumed the chain, and a running chain
      // can cross the boundary between reading its height and mining to it (it did on swarm in
      // a fresh-clone CI run: the chain at 49 read, past 50 when mined, nothing left to mine).
      const held = await n.time.pause();
      const epoch = Math.floor(held / EPOCH) + 1;
      const heights = await n.time.mine({ epoch });
      assert.equal(heights.at(-1), epoch * EPOCH);
      for (const name of n.net.names()) assert.ok((await n.node(name).rpc.status()).epoch >= epoch, name);
      await n.time.resume();
    });

    step(
      'mine 250 across two epoch boundaries: the stopped validator jailed at the first',
      async (n) => {
        await n.time.pause();
        await n.node('validator-3').stop();
        const address = (await n.chain.validatorOf('validator-0', 'validator-3')).address;
        const heights = await n.time.mine(250);
        assert.equal(heights.length, 250);
        const from = heights[0]! - 1;
        const boundary = (Math.floor(from / EPOCH) + 1) * EPOCH;
        assert.ok(boundary + EPOCH <= heights.at(-1)!, 'two boundaries crossed');
        const v = await n.chain.validatorOf('validator-0', 'validator-3');
        assert.equal(v.status, 'JAILED', `${address} after mining`);
        // Its slots before the boundary were missed (rounds above 0); after it, it is not scheduled.
        let missed = 0;
        for (let h = boundary - 7; h <= boundary; h++) if ((await round(n, h)) > 0) missed++;
        assert.ok(missed >= 1, `a missed slot of validator-3 in the 8 blocks up to ${boundary}`);
        for (let h = boundary + 1; h <= boundary + 8; h++) assert.equal(await round(n, h), 0, `height ${h}`);
        // Started into the held chain, it catches up by block sync while held; then the chain goes on.
        await n.node('validator-3').start();
        await n.expect.synced({ within: { blocks: 60 } });
        assert.equal(await top(n), heights.at(-1), 'still held at the last height mined');
        await n.time.resume();
      },
      600_000,
    );

    step('clocks skewed +10 s and -10 s: the chain goes on in round 0', async (n) => {
      await n.time.skew('validator-2', 10_000);
      await n.time.skew('validator-1', -10_000);
      const control = await n.node('validator-1').rpc.chainControl();
      assert.equal(control.control.clock_skew_ms, -10_000);
      assert.equal((await n.node('validator-2').rpc.chainControl()).control.clock_skew_ms, 10_000);
      const from = (await n.waitBlocks(1)) + 1;
      await n.chain.waitHeight(from + 9, ['validator-0', 'validator-1', 'validator-2'], 40);
      for (let h = from; h <= from + 9; h++) {
        assert.equal(await round(n, h), 0, `height ${h} decided in round 0`);
        assert.ok(
          (await timestamp(n, h)) >= (await timestamp(n, h - 1)),
          `height ${h} not before its parent`,
        );
      }
    });
  });
}
