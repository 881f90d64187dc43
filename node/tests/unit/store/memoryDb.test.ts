/**
 * A ChainStore on a MemoryDb (the simulation's disk): what it wrote is there when the same
 * MemoryDb is opened again under a new ChainStore (a simulated node started again), and the
 * closed one writes nothing more, though its level is open again under the other.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChainStore, memoryDb } from '../../../src/store/chainStore.js';
import type { StoredReceipt } from '../../../src/store/receipts.js';

const receipt = (tx_hash: string): StoredReceipt => ({
  tx_hash,
  status: 'failed',
  block_height: null,
  timestamp: null,
  error: 'expired',
  error_code: 'EXPIRED',
});

describe('ChainStore on a MemoryDb', () => {
  it('keeps what it wrote across a close and an open, and a closed store writes nothing more', async () => {
    const db = memoryDb();
    const first = await ChainStore.open('/sim/a', null, db);
    await first.putReceipt(receipt('aa'));
    await first.close();
    const second = await ChainStore.open('/sim/a', null, db);
    assert.equal((await second.receipt('aa'))?.error_code, 'EXPIRED', 'the write outlived the close');
    await assert.rejects(first.putReceipt(receipt('bb')), {
      code: 'STORE_UNAVAILABLE',
      message: 'the data store at /sim/a is closed',
    });
    assert.equal(await second.receipt('bb'), null, 'the closed store wrote into the open one');
    await second.close();
  });

  it('each MemoryDb is a disk of its own', async () => {
    const a = await ChainStore.open('/sim/a', null, memoryDb());
    const b = await ChainStore.open('/sim/b', null, memoryDb());
    await a.putReceipt(receipt('cc'));
    assert.equal(await b.receipt('cc'), null);
    await Promise.all([a.close(), b.close()]);
  });
});
