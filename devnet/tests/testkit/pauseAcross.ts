/**
 * A devnet stopped for longer than an epoch (in wall time: epoch length × block time) and longer
 * than a market task's deadline, through the testkit's stopAll/startAll (docs/RULES.md, "Across a
 * pause"): no epoch ends for the pause, nobody is jailed, no slot is missed across it (every block
 * from before the stop to past the resume decided in round 0), chain time jumps with the wall
 * clock, and the task whose deadline passed fails by deadline at the first blocks after the
 * resume, its creator refunded. Run on each runtime by pauseProcess.test.ts, pauseDocker.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pause } from '@chain-devnet/kit/wait';
import { MarketClient } from '@chain-devnet/node/market';
import { expectTask, marketStep } from '../../src/scenario/marketSteps.js';
import type { RuntimeChoice } from '../../src/spec/manifest.js';
import { withTestnet } from '../../src/testkit/index.js';
import { roundsAfter } from '../support/chainPicture.js';

const BLOCK_MS = 300;
const EPOCH = 10;
const DEADLINE_S = 8;
/** Longer than an epoch (3 s) and than the deadline (8 s). */
const PAUSE_MS = 12_000;

export function pauseAcrossEpoch(runtime: Exclude<RuntimeChoice, 'auto'>): void {
  test(
    `${runtime}: a pause longer than an epoch and than a task deadline: no jail, no missed slot, the task fails by deadline and is refunded`,
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
            seed: `pause-${runtime}`,
          },
          runtime,
          name: `pause-${runtime}`,
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
          // The height seen just before the stop: a block or two may still have followed it.
          const seen = await net.stopAll();
          await pause(PAUSE_MS);
          await net.startAll();

          // Every block from before the stop to past the resume decided in round 0: no slot missed.
          const WINDOW = 8;
          const rounds = await roundsAfter(v0, seen - 1, WINDOW, net.within(30));
          assert.deepEqual(
            rounds,
            rounds.map(() => 0),
            `blocks ${seen}..${seen + WINDOW - 1} were decided in rounds ${rounds}`,
          );
          // Chain time jumps with the wall clock: every node was stopped through the whole pause,
          // so two blocks of the window lie at least that far apart (timestamps in whole seconds).
          const times = await Promise.all(
            Array.from({ length: WINDOW }, async (_, i) => (await v0.block(seen - 1 + i)).header.timestamp),
          );
          const jump = Math.max(...times.slice(1).map((t, i) => t - times[i]!));
          assert.ok(
            jump >= Math.floor(PAUSE_MS / 1000) - 1,
            `chain time jumps with the wall clock: at most ${jump} s between blocks ${seen - 1}..${seen + WINDOW - 2}, across a pause of ${PAUSE_MS} ms`,
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
}
