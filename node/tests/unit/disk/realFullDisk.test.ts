/**
 * A real full disk under the chain store, with no fault layer: the store's folder on a 1 MiB
 * tmpfs (root only: skipped otherwise), filled by a filler file until the system answers ENOSPC.
 * Level gives it as LEVEL_IO_ERROR with the system's text; the store makes that STORE_WRITE_FAILED
 * told as a full disk, writes nothing of the batch, and once the filler is gone goes on with the
 * same open database (measured: level takes writes again after a failed log write; no reopen).
 * The mount is removed whatever happens.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isDiskFull } from '../../../src/disk/errors.js';
import { ChainStore } from '../../../src/store/chainStore.js';
import { StoreError } from '../../../src/store/errors.js';

const root = process.getuid?.() === 0;
const receipt = (n: number) => ({
  tx_hash: n.toString(16).padStart(64, '0'),
  status: 'failed' as const,
  block_height: null,
  timestamp: null,
  error: 'x'.repeat(2000),
  error_code: 'EXPIRED',
});

describe('a real full disk (tmpfs) under the chain store', {
  skip: root ? false : 'needs root (mount)',
}, () => {
  it('refuses a write as a full disk, keeps the store whole, and goes on once space is freed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
    let store: ChainStore | null = null;
    try {
      store = await ChainStore.open(join(dir, 'data'));
      await store.putReceipt(receipt(0));
      await writeFile(join(dir, 'filler'), new Uint8Array(2 << 20)).catch((e: NodeJS.ErrnoException) => {
        assert.equal(e.code, 'ENOSPC');
      });
      let refused: unknown = null;
      for (let n = 1; n < 1000 && refused === null; n++)
        await store.putReceipt(receipt(n)).catch((e: unknown) => {
          refused = e;
        });
      assert.ok(refused instanceof StoreError && refused.code === 'STORE_WRITE_FAILED', String(refused));
      assert.ok(isDiskFull(refused), `told as a full disk: ${(refused as Error).message}`);
      await rm(join(dir, 'filler'));
      await store.putReceipt(receipt(5000));
      assert.equal((await store.receipt(receipt(5000).tx_hash))?.tx_hash, receipt(5000).tx_hash);
      assert.equal((await store.receipt(receipt(0).tx_hash))?.tx_hash, receipt(0).tx_hash);
      await store.close();
      store = await ChainStore.open(join(dir, 'data'));
      assert.equal(
        (await store.receipt(receipt(5000).tx_hash))?.tx_hash,
        receipt(5000).tx_hash,
        'reopened whole',
      );
    } finally {
      await store?.close().catch(() => undefined);
      execFileSync('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
