/**
 * The work a joiner does for a snapshot peer, bounded (issue 39, part 3), over real libp2p and
 * real level stores: an entries bomb (the real state with 2,000,000 junk accounts, about 5 MB of
 * gzip) is refused at its header, after its first chunk, as more entries than the chain can hold at
 * that height; a bomb within that bound (a chain whose blocks could hold that many) is read as it
 * arrives into a hash and a root and refused by the root, no state built: in both the joiner's
 * memory stays bounded and its event loop keeps turning (its RPC answers). A rogue answering each
 * chunk just inside the chunk bound is cut off at its offer's deadline (a minimum rate) and scored
 * down, and the joiner restores from the honest peer beside it within a bound.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, type TestContext } from 'node:test';
import { scaledMs } from '@chain-devnet/kit/wait';
import { type Scene, stateSyncScene } from '../../../support/stateSyncScene.js';

/**
 * The joiner's heap and buffers above what they were, at their peak, and the longest its event loop
 * did not turn: measured as the CPU time the process spent between two turns (a 5 ms timer), not
 * their wall time, so that a busy machine that leaves this process waiting for a core does not
 * count as work this process did without yielding (a synchronous decode of the whole bomb took
 * 34-53 s of CPU in one stretch before issue 39; every slice since takes a few ms).
 */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ result: T; peakMb: number; stallCpuMs: number; stallWallMs: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  let peak = before;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let stallWallMs = 0;
  let stallCpuMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    stallWallMs = Math.max(stallWallMs, now - last);
    stallCpuMs = Math.max(stallCpuMs, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
    peak = Math.max(peak, used());
  }, 5);
  try {
    const result = await work();
    // A turn of the event loop first: work that ended in a long synchronous stretch is seen too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result, peakMb: (peak - before) / 2 ** 20, stallCpuMs, stallWallMs };
  } finally {
    clearInterval(timer);
  }
}

describe('state sync: the work a snapshot peer can cause is bounded', { timeout: 300_000 }, () => {
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  });
  const track = (stop: () => Promise<unknown>) => stops.push(stop);

  /** Runs the joiner against the rogue of `scene`: refused for `reason`, nothing written; its bounds measured. */
  async function refusedWithin(t: TestContext, scene: Scene, reason: RegExp, maxMb: number) {
    const { result, peakMb, stallCpuMs, stallWallMs } = await measured(() => scene.stateSync.run());
    t.diagnostic(
      `memory grew ${peakMb.toFixed(1)} MB at most; the event loop stood still ${stallCpuMs.toFixed(0)} ms of CPU (${stallWallMs.toFixed(0)} ms of wall time) at most`,
    );
    assert.equal(result, null);
    assert.match(scene.stateSync.standing.of(scene.rogue.peerId)?.lastReason ?? '', reason);
    assert.ok(peakMb < maxMb, `memory grew ${peakMb.toFixed(0)} MB`);
    assert.ok(stallCpuMs < 500, `the event loop stood still for ${stallCpuMs.toFixed(0)} ms of CPU`);
    assert.equal(await scene.joiner.store.identity(), null, 'nothing written');
  }

  it('an entries bomb (2,000,000 junk accounts) is refused at its header, after one chunk, memory and event loop bounded', async (t) => {
    const scene = await stateSyncScene({
      lies: { snapshot: 'entries-bomb', snapshotLie: { bombEntries: 2_000_000 } },
      blocks: 45,
      options: { rounds: 1 },
      track,
    });
    const reason =
      /snapshot 40 refused: the snapshot declares 200000\d entries, more than the \d+ a state of it can hold/;
    await refusedWithin(t, scene, reason, 64);
    assert.deepEqual(scene.rogue.chunkRequests, [40], 'refused after its first chunk');
  });

  it('a bomb within the entry bound is read as it arrives and refused by its root, no state built, memory and event loop bounded', async (t) => {
    const scene = await stateSyncScene({
      lies: { snapshot: 'entries-bomb', snapshotLie: { bombEntries: 400_000 } },
      blocks: 45,
      // Blocks that could hold a million transactions each: 400,000 more entries are within reach.
      genesis: { params: { block_gas_limit: 21_000_000_000 } },
      options: { rounds: 1 },
      track,
    });
    await refusedWithin(
      t,
      scene,
      /snapshot 40 not proven: restored state root \w+ differs from block 40's state_root/,
      96,
    );
    assert.ok(scene.rogue.chunkRequests.length > 1, 'every chunk read');
  });

  it('a rogue answering each chunk just inside the chunk bound is cut off at its deadline; the joiner restores from the honest peer within a bound', async (t) => {
    const { rogue, stateSync, logger, joinHonest } = await stateSyncScene({
      lies: { snapshot: 'slow-chunks', snapshotLie: { chunkDelayMs: 2900 } },
      // Snapshots every 4 blocks: the honest peer's newest at 8, the rogue's copy of the chain,
      // 4 blocks ahead, at 12: the highest offer, tried first.
      blocks: 9,
      rogueBlocks: 13,
      // About 1 MB of snapshot: 4 chunks, 11.6 s at the rogue's pace.
      genesis: { manyAccounts: 25_000, params: { epoch_length: 4 } },
      options: { rounds: 3, chunkMs: 3000, offerGraceMs: 300, minBytesPerSecond: 1024 * 1024 },
      track,
    });
    const honest = await joinHonest();
    const started = performance.now();
    assert.equal(await stateSync.run(), 8, 'the honest peer’s newest snapshot');
    const tookMs = performance.now() - started;
    t.diagnostic(`restored in ${tookMs.toFixed(0)} ms`);
    assert.ok(
      logger.lines.some((l) => l.msg === 'state sync restored' && l.peer === honest.peerId),
      'restored from the honest peer',
    );
    assert.match(stateSync.standing.of(rogue.peerId)?.lastReason ?? '', /^slower than 1048576 bytes\/s: /);
    assert.deepEqual(rogue.chunkRequests, [12], 'one chunk asked of the rogue, then cut off');
    // Sooner than the rogue could have served its offer at its pace (4 chunks, 2.9 s each): the
    // joiner did not wait for it. One chunk asked of the rogue, above, is the exact proof; this
    // bound is the scenario's, but the restore's own work in it (25,000 accounts read, checked and
    // written) is the machine's, so it scales with the machine's slowness (calm: 2.4-4.4 s; 13.6 s
    // once in a fresh-clone CI run beside busy loops and another test run, 2026-12-02).
    assert.ok(tookMs < scaledMs(4 * 2900), `restored in ${tookMs.toFixed(0)} ms`);
  });
});
