/**
 * The disk faults (docs/PROTOCOL.md, "Disk faults") over a real level store in a temporary
 * folder, time on a ManualTicker (no sleeps): disk_faults.json's form and its refusals named by
 * field, the previous faults staying; the file in force before the first write of a restarted
 * node; a full disk refusing a write with the system's ENOSPC and changing nothing, then freed;
 * slow writes; writes held until an fsync, seen by reads, lost to a kill and written back once
 * lose_unsynced is off; the disk's health saying a failure once.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { isDiskFull } from '../../../src/disk/errors.js';
import {
  DISK_FAULTS_FILE,
  type DiskFaults,
  formatDiskFaults,
  NO_DISK_FAULTS,
  parseDiskFaults,
} from '../../../src/disk/faults.js';
import { DiskHealth } from '../../../src/disk/health.js';
import { DiskLayer } from '../../../src/disk/layer.js';
import { applyDiskFaults, watchDiskFaults } from '../../../src/faults/diskFaults.js';
import { ChainStore } from '../../../src/store/chainStore.js';
import { StoreError } from '../../../src/store/errors.js';
import type { StoredReceipt } from '../../../src/store/receipts.js';
import { ManualTicker } from '../../../src/util/ticker.js';

const receipt = (n: number): StoredReceipt => ({
  tx_hash: n.toString(16).padStart(64, '0'),
  status: 'failed',
  block_height: null,
  timestamp: null,
  error: 'expired',
  error_code: 'EXPIRED',
});
const faults = (f: Partial<DiskFaults>): DiskFaults => ({ ...NO_DISK_FAULTS, ...f });
const snapshot = (height: number) => ({
  height,
  timestamp: height,
  hash: 'ab'.repeat(32),
  epoch: 0,
  validatorCount: 1,
  accountCount: 1,
  contentBytes: 10,
  sizeBytes: 10,
});

describe('disk_faults.json', () => {
  it('reads every field, fills those left out, and refuses a bad file naming the field at fault', () => {
    assert.deepEqual(
      parseDiskFaults('{"version":1,"full":true,"write_delay_ms":5,"fsync_delay_ms":7,"lose_unsynced":true}'),
      { full: true, writeDelayMs: 5, fsyncDelayMs: 7, loseUnsynced: true },
    );
    assert.deepEqual(parseDiskFaults('{"version":1}'), NO_DISK_FAULTS);
    assert.deepEqual(
      parseDiskFaults(formatDiskFaults(faults({ fsyncDelayMs: 3 }))),
      faults({ fsyncDelayMs: 3 }),
    );
    const field = (text: string) => (parseDiskFaults(text) as { field: string | null }).field;
    assert.equal(field('{"version":1,"full":"yes"}'), 'full');
    assert.equal(field('{"version":1,"write_delay_ms":-1}'), 'write_delay_ms');
    assert.equal(field('{"version":1,"fsync_delay_ms":1.5}'), 'fsync_delay_ms');
    assert.equal(
      field('{"version":1,"fsync_delay":5}'),
      'fsync_delay',
      'a misspelt field is refused, not ignored',
    );
    assert.equal(field('{"full":true}'), 'version');
    assert.equal(field('[true]'), null);
    assert.equal(field('{"version":1'), null);
  });

  it('a bad file is refused with a warning naming the field, and the faults in force before it stay', () => {
    const layer = new DiskLayer(new ManualTicker());
    const logger = memoryLogger();
    applyDiskFaults('{"version":1,"full":true}', layer, 'p', logger);
    applyDiskFaults('{"version":1,"full":false,"write_delay_ms":"50ms"}', layer, 'p', logger);
    assert.deepEqual(layer.current, faults({ full: true }));
    assert.match(String(logger.lines.at(-1)?.msg), /^disk_faults\.json: write_delay_ms must be an integer/);
    applyDiskFaults(null, layer, 'p', logger);
    assert.deepEqual(layer.current, NO_DISK_FAULTS, 'the file removed: no fault');
  });
});

describe('the disk fault layer under the chain store', () => {
  let dir: string;
  let ticker: ManualTicker;
  let layer: DiskLayer;
  let store: ChainStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'disk-faults-'));
    ticker = new ManualTicker();
    layer = new DiskLayer(ticker);
    store = await ChainStore.open(join(dir, 'data'), layer);
  });
  afterEach(async () => {
    await store.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('a restarted node has the faults of its file in force before its first write', async () => {
    await writeFile(join(dir, DISK_FAULTS_FILE), formatDiskFaults(faults({ full: true })));
    const fresh = new DiskLayer(ticker);
    const stop = await watchDiskFaults(join(dir, DISK_FAULTS_FILE), fresh, memoryLogger());
    stop();
    assert.deepEqual(fresh.current, faults({ full: true }));
  });

  it('full: a write fails with the system error ENOSPC and writes nothing; freed, writes go on', async () => {
    layer.set(faults({ full: true }));
    const e = await store.putReceipt(receipt(1)).then(
      () => null,
      (x: unknown) => x,
    );
    assert.ok(e instanceof StoreError && e.code === 'STORE_WRITE_FAILED', String(e));
    const cause = e.cause as NodeJS.ErrnoException;
    assert.equal(cause.code, 'ENOSPC');
    assert.equal(cause.errno, -28);
    assert.ok(isDiskFull(e) && isDiskFull(cause));
    assert.equal(await store.receipt(receipt(1).tx_hash), null, 'nothing of the refused write');
    layer.set(NO_DISK_FAULTS);
    await store.putReceipt(receipt(1));
    assert.deepEqual(await store.receipt(receipt(1).tx_hash), receipt(1));
  });

  it("slow writes: a write is done only once the ticker has gone the delay's length", async () => {
    layer.set(faults({ writeDelayMs: 50 }));
    let done = false;
    const write = store.putReceipt(receipt(2)).then(() => {
      done = true;
    });
    ticker.advance(49);
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, 'not before 50 ms');
    ticker.advance(1);
    await write;
    assert.equal(done, true);
  });

  it('lose_unsynced: writes are read back, a kill loses them whole, and the store on disk is the older one', async () => {
    await store.putReceipt(receipt(1));
    await store.replaceSnapshotInfos(snapshot(10), []);
    layer.set(faults({ loseUnsynced: true }));
    await store.putReceipt(receipt(2));
    await store.replaceSnapshotInfos(snapshot(20), [10]);
    assert.deepEqual(await store.receipt(receipt(2).tx_hash), receipt(2), 'reads see what is held');
    assert.deepEqual(
      (await store.snapshotInfos()).map((s) => s.height),
      [20],
      'a held batch replaces and drops as it would on disk',
    );
    // A kill: the process goes, what it held in memory with it (the store on disk is closed as the system would).
    await store.close();
    store = await ChainStore.open(join(dir, 'data'), null);
    assert.equal(await store.receipt(receipt(2).tx_hash), null);
    assert.deepEqual(
      (await store.snapshotInfos()).map((s) => s.height),
      [10],
      'the older store, whole',
    );
    assert.deepEqual(await store.receipt(receipt(1).tx_hash), receipt(1));
  });

  it('lose_unsynced turned off writes what was held back, in order', async () => {
    layer.set(faults({ loseUnsynced: true }));
    await store.replaceSnapshotInfos(snapshot(10), []);
    await store.replaceSnapshotInfos(snapshot(20), [10]);
    layer.set(NO_DISK_FAULTS);
    await store.putReceipt(receipt(3));
    await store.close();
    store = await ChainStore.open(join(dir, 'data'), null);
    assert.deepEqual(
      (await store.snapshotInfos()).map((s) => s.height),
      [20],
    );
    assert.deepEqual(await store.receipt(receipt(3).tx_hash), receipt(3));
  });

  it('a held write that cannot go to disk (full) stays held, and goes once the disk is freed', async () => {
    layer.set(faults({ loseUnsynced: true }));
    await store.putReceipt(receipt(4));
    layer.set(faults({ full: true }));
    await assert.rejects(store.putReceipt(receipt(5)), /ENOSPC/);
    assert.deepEqual(await store.receipt(receipt(4).tx_hash), receipt(4), 'still held');
    layer.set(NO_DISK_FAULTS);
    await store.putReceipt(receipt(5));
    await store.close();
    store = await ChainStore.open(join(dir, 'data'), null);
    assert.deepEqual(await store.receipt(receipt(4).tx_hash), receipt(4));
    assert.deepEqual(await store.receipt(receipt(5).tx_hash), receipt(5));
  });
});

describe("the disk's health", () => {
  it('says a failure once, shows it until a write of that part succeeds, then says so once', () => {
    const logger = memoryLogger();
    const clock = { now: 1000 };
    const health = new DiskHealth(logger, () => clock.now);
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    health.failed('store', full);
    clock.now = 1500;
    health.failed('store', full);
    health.failed('priv-validator', full);
    assert.deepEqual(health.state, {
      writable: false,
      error: 'disk full: ENOSPC: no space left on device, write',
      failing: ['store', 'priv-validator'],
      since: 1000,
    });
    health.succeeded('store');
    health.succeeded('priv-validator');
    health.succeeded('store');
    assert.equal(health.state.writable, true);
    assert.deepEqual(
      logger.lines.map((l) => `${l.level} ${l.msg}`),
      [
        'error disk full: ENOSPC: no space left on device, write',
        'error disk full: ENOSPC: no space left on device, write',
        'info disk writable again',
        'info disk writable again',
      ],
    );
  });
});
