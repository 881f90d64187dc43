/**
 * The driver under the test-only chain control (consensus/pace.ts, faults/chainControl.ts;
 * docs/PROTOCOL.md, "Chain control"): a sole validator's chain with a ManualTicker, so held,
 * mined and re-timed stretches are shown by moving time, never by sleeping. A held validator
 * enters no height however long it waits; mining enters heights with no wait, up to the target,
 * then holds again; a block time set at run time paces the heights after it.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { ConsensusDriver } from '../../../../src/consensus/driver/driver.js';
import { ChainControlInForce } from '../../../../src/faults/chainControl.js';
import { type ChainControl, NO_CHAIN_CONTROL } from '../../../../src/faults/chainControlFile.js';
import { createMetrics } from '../../../../src/metrics/metrics.js';
import type { P2PNetwork } from '../../../../src/p2p/network.js';
import { CheckedSigner } from '../../../../src/privval/checkedSigner.js';
import { NEVER_SIGNED } from '../../../../src/privval/privValidatorState.js';
import { ManualTicker } from '../../../../src/util/ticker.js';
import { key } from '../../../fixtures.js';
import { type Harness, makeHarness } from '../../../support/harness.js';

const TIMEOUTS = { propose: () => 3000, prevote: () => 500, precommit: () => 500 };
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

describe('the driver under the chain control', () => {
  let h: Harness;
  let driver: ConsensusDriver;
  afterEach(async () => {
    await driver?.stop();
    await h?.close();
  });

  async function setup(initial: ChainControl = NO_CHAIN_CONTROL) {
    h = await makeHarness({ validators: ['val-0'] });
    const ticker = new ManualTicker(h.clock);
    const control = new ChainControlInForce(() => h.clock.now);
    control.set(initial);
    const val = key('val-0');
    const net = { subscribe() {}, async publish() {}, onTopicPeerJoined() {}, connectedPeers: () => [] };
    driver = new ConsensusDriver(
      {
        privateKey: val.privateKey,
        signer: new CheckedSigner(val.privateKey, NEVER_SIGNED, {
          persist: () => undefined,
          onRefusal: () => undefined,
        }),
        blockTimeMs: 1000,
        timeouts: TIMEOUTS,
        rebroadcastMs: 1000,
        maxClockDriftSec: 30,
      },
      {
        service: h.service,
        network: net as unknown as P2PNetwork,
        sync: null,
        metrics: createMetrics(),
        logger: memoryLogger(),
        ticker,
        pace: control,
      },
    );
    await driver.start();
    /** Moves time `ms` in steps of `step` ms, letting the store's writes finish between them (a real 2 ms each). */
    const advance = async (ms: number, step = 20) => {
      for (let t = 0; t < ms; t += step) {
        await settle();
        ticker.advance(Math.min(step, ms - t));
      }
      await settle();
    };
    const height = () => h.service.state.height;
    return { control, advance, height };
  }

  it('paces heights at the block time without a control', async () => {
    const { advance, height } = await setup();
    await advance(5_500);
    assert.ok(height() >= 5 && height() <= 6, `height ${height()} after 5.5 s of 1 s blocks`);
  });

  it('a held validator enters no height, however long it waits, and goes on when the hold ends', async () => {
    const { control, advance, height } = await setup();
    await advance(2_500);
    control.set({ ...control.control, hold: true });
    await advance(1_000); // a height in progress finishes
    const held = height();
    await advance(30_000, 50);
    assert.equal(height(), held, 'no new height in 30 s held');
    assert.equal(driver.isHeld, true);
    control.set({ ...control.control, hold: false });
    await advance(3_000);
    assert.ok(height() > held, 'heights again after the hold');
    assert.equal(driver.isHeld, false);
  });

  it('a validator held from its start enters nothing until the hold ends', async () => {
    const { control, advance, height } = await setup({ ...NO_CHAIN_CONTROL, hold: true });
    await advance(10_000);
    assert.equal(height(), 0);
    control.set({ ...control.control, hold: false });
    await advance(1_500);
    assert.ok(height() >= 1);
  });

  it('mines to a height with no wait between heights, then holds again', async () => {
    const { control, advance, height } = await setup({ ...NO_CHAIN_CONTROL, hold: true });
    control.set({ ...control.control, mineToHeight: 20 });
    const from = h.clock.now;
    for (let i = 0; i < 2_000 && height() < 20; i++) await advance(1, 1);
    assert.equal(height(), 20);
    // 20 heights of 1 s blocks in well under one block time of the clock: none waited.
    assert.ok(h.clock.now - from < 1_000, `${h.clock.now - from} ms of clock for 20 heights`);
    await advance(10_000);
    assert.equal(height(), 20, 'held at the target');
    assert.equal(driver.isHeld, true);
  });

  it('a block time set at run time paces the heights after it', async () => {
    const { control, advance, height } = await setup();
    await advance(1_500);
    control.set({ ...control.control, blockTimeMs: 100 });
    await advance(1_000);
    const from = height();
    await advance(1_000);
    assert.ok(height() - from >= 8, `${height() - from} heights in 1 s of 100 ms blocks`);
    control.set({ ...control.control, blockTimeMs: 5_000 });
    await advance(500);
    const slow = height();
    await advance(4_000);
    assert.equal(height(), slow, 'no height within 4 s of 5 s blocks');
  });
});
