/**
 * Disks as they are in the world (issue 41), on a real devnet of 4 validators on processes, each
 * node with its real level store and priv-validator files under the disk fault layer
 * (docs/PROTOCOL.md, "Disk faults"): one validator's disk full, the other three go on; it says
 * "disk full" once in its log and in its status, commits and signs nothing; freed, it catches up
 * and is back in consensus, and a restart finds its store whole. Then one validator killed with
 * its unsynced writes dropped (lose_unsynced): its store on disk is older than the height it
 * reported, it comes back consistent and catches up. The whole-history invariants hold at the end
 * (Testnet.stop).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { storedHeight } from '@chain-devnet/node/testnet';
import { backAfterFree, diskTestnet, standsStillFull } from './diskTestnet.js';

describe('disk faults on the process runtime', () => {
  const { net, step } = diskTestnet(
    { validators: 4, block_time: '400ms', epoch_length: 1000, seed: 'disk-process' },
    'disk-process',
  );

  step('a full disk on one validator: the others go on, it says so once and stands still', async () => {
    const node = net().node('validator-1');
    const marks = await net().logMarks();
    assert.deepEqual(await node.diskFull(), {
      full: true,
      writeDelayMs: 0,
      fsyncDelayMs: 0,
      loseUnsynced: false,
    });
    const status = await standsStillFull(net(), marks, '"msg":"disk full: ENOSPC: no space left on device');
    assert.match(status.disk.error ?? '', /^disk full: ENOSPC/);
    assert.deepEqual(status.disk.faults, {
      full: true,
      write_delay_ms: 0,
      fsync_delay_ms: 0,
      lose_unsynced: false,
    });
    const shown = (await net().devnet.status()).find((n) => n.name === 'validator-1')!;
    assert.equal(shown.disk.backend, 'layer');
    assert.equal(shown.disk.writable, false);
    await net().expect.log({
      nodes: ['validator-1'],
      contains: '"msg":"disk full:',
      since: marks,
      count: { atMost: 2 }, // once a part: the store, the priv-validator
    });
  });

  step('freed: it catches up, is back in consensus, and a restart finds its store whole', async () => {
    const node = net().node('validator-1');
    const marks = await net().logMarks();
    await node.diskFree();
    await backAfterFree(net(), marks);
    await node.restart();
    await net().expect.synced({ within: { blocks: 30 } });
    await node.clearDisk();
  });

  step('killed with its unsynced writes lost: it comes back consistent and catches up', async () => {
    const node = net().node('validator-2');
    await node.loseUnsynced();
    await net().waitBlocks(6);
    const reported = await node.height();
    await node.kill();
    const home = join(net().home, 'nodes', 'validator-2');
    const onDisk = await storedHeight(home);
    assert.ok(
      onDisk !== null && onDisk < reported,
      `the store on disk at ${onDisk}, below the ${reported} reported`,
    );
    await node.clearDisk();
    await node.start();
    await net().expect.synced({ within: { blocks: 30 } });
    await net().waitBlocks(4);
  });

  test('stop: the whole-history invariants hold', { timeout: 300_000 }, async () => {
    await net().stop();
  });
});
