/** Snapshots on disk: taken at intervals and epoch boundaries, the last N kept, verified when read. */
import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeHarness } from '../../support/harness.js';

describe('snapshots on disk', () => {
  it('keeps only the newest snapshots_kept files and records', async () => {
    const h = await makeHarness({ params: { epoch_length: 100, snapshot_interval: 2, snapshots_kept: 3 } });
    try {
      for (let i = 0; i < 12; i++) await h.produce();
      const list = (await h.request('GET', '/snapshots')).json() as { snapshots: { height: number }[] };
      assert.deepEqual(
        list.snapshots.map((s) => s.height),
        [12, 10, 8],
      );
      assert.deepEqual((await readdir(join(h.dir, 'snapshots'))).sort(), [
        '10.snapshot.gz',
        '12.snapshot.gz',
        '8.snapshot.gz',
      ]);
      assert.equal((await h.request('GET', '/snapshots/6')).status, 404, 'pruned');
    } finally {
      await h.close();
    }
  });

  it('never lists more than snapshots_kept records, not even between a new one and the pruning', async () => {
    const h = await makeHarness({ params: { epoch_length: 100, snapshot_interval: 2, snapshots_kept: 3 } });
    try {
      // After every write of the store's snapshot records, the list as a reader would see it.
      const store = h.store as unknown as Record<string, unknown>;
      const seen: number[] = [];
      const proto = Object.getPrototypeOf(h.store) as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = proto[name];
        if (!/snapshot/i.test(name) || name === 'snapshotInfos' || typeof method !== 'function') continue;
        store[name] = async (...args: unknown[]) => {
          const result: unknown = await (method as (...a: unknown[]) => Promise<unknown>).apply(
            h.store,
            args,
          );
          seen.push((await h.store.snapshotInfos()).length);
          return result;
        };
      }
      for (let i = 0; i < 12; i++) await h.produce();
      assert.ok(seen.length >= 6, `the snapshot records were written ${seen.length} times`);
      assert.ok(
        seen.every((n) => n <= 3),
        `records listed after each write: ${seen.join(', ')}`,
      );
    } finally {
      await h.close();
    }
  });

  it('does not serve a snapshot whose file no longer hashes to its recorded value', async () => {
    const h = await makeHarness({ params: { epoch_length: 2 } });
    try {
      await h.produce();
      await h.produce();
      assert.equal((await h.request('GET', '/snapshots/2')).status, 200);
      await writeFile(join(h.dir, 'snapshots', '2.snapshot.gz'), Buffer.from('not a snapshot'));
      const res = await h.request('GET', '/snapshots/2');
      assert.equal(res.status, 500);
      assert.deepEqual(res.json(), { detail: 'Snapshot 2 failed verification' });
    } finally {
      await h.close();
    }
  });
});
