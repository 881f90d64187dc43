/**
 * A devnet stopped for longer than an epoch (in wall time: epoch length × block time) and longer
 * than a market task's deadline, through the testkit's stopAll/startAll on the process runtime
 * (docs/RULES.md, "Across a pause"): no epoch ends for the pause, nobody is jailed, no slot is
 * missed across it (every block from before the stop to past the resume decided in round 0), chain
 * time jumps with the wall clock, and the task whose deadline passed fails by deadline at the
 * first blocks after the resume, its creator refunded.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MarketClient } from '@chain-devnet/node/market';
import { expectTask, marketStep } from '../../src/scenario/marketSteps.js';
import { withTestnet } from '../../src/testkit/index.js';
import { roundsAfter } from '../chainPicture.js';

const BLOCK_MS = 300;
const EPOCH = 10;
const DEADLINE_S = 8;
/** Longer than an epoch (3 s) and than the deadline (8 s). */
const PAUSE_MS = 12_000;

test(
  'a pause longer than an epoch and than a task deadline: no jail, no missed slot, the task fails by deadline and is refunded',
  {
    timeout: 300_000,
  },
  () =>
    withTestnet(
      {
        manifest: {
          validators: 4,
          block_time: `${BLOCK_MS}ms`,
          epoch_length: EPOCH,
          monitoring: false,
          market: true,
          seed: 'pause-process',
        },
        runtime: 'process',
        name: 'pause-process',
      },
      async (net) => {
        const v0 = net.node('validator-0').rpc;
        // A task with too little chain time for the sample worker to claim it (it wants 30 s).
        const posted = await marketStep(net, {
          post: { from: 'account-1', reward: '2coin', deadline: `${DEADLINE_S}s` },
        });
        const taskId = String(posted.task);
        const market = new MarketClient(net.market!, 10_000);
        assert.equal((await market.task(taskId)).status, 'pending');

        const before = await v0.validators();
        const stopHeight = await net.stopAll();
        const stoppedAt = Date.now();
        await new Promise((r) => setTimeout(r, PAUSE_MS));
        await net.startAll();
        const paused = Date.now() - stoppedAt;

        // Epochs are in blocks: the pause (four epochs of wall time) ended none by itself.
        const rounds = await roundsAfter(v0, stopHeight, 3, net.within(20));
        assert.deepEqual(
          rounds,
          [0, 0, 0],
          `the first blocks after the resume were decided in rounds ${rounds}`,
        );
        const first = await v0.block(stopHeight + 1);
        const last = await v0.block(stopHeight);
        const jump = first.header.timestamp - last.header.timestamp;
        assert.ok(
          jump >= Math.floor((paused - 2 * BLOCK_MS) / 1000) - 1,
          `chain time jumps with the wall clock: ${jump} s across a pause of ${paused} ms`,
        );
        const after = await v0.validators();
        for (const v of after.validators) {
          assert.equal(v.is_jailed, false, `${v.name} is not jailed`);
          const was = before.validators.find((x) => x.address === v.address)!;
          assert.equal(v.jail_count, was.jail_count, `${v.name}'s jail count`);
          // Within one epoch, the counters only grow; across a boundary they restart.
          if (after.epoch === before.epoch)
            assert.equal(v.missed_slots, was.missed_slots, `${v.name}'s missed slots`);
        }

        await expectTask(net, { task: taskId, status: 'failed', within: { blocks: 20 } });
        const failed = await market.task(taskId);
        assert.equal(failed.failure?.reason, 'deadline');
        const creator = net.accounts.find((a) => a.name === 'account-1')!.address;
        assert.ok(
          failed.payouts.some((p) => p.to_address === creator),
          `a refund to the creator is planned: ${JSON.stringify(failed.payouts)}`,
        );
      },
    ),
);
