/**
 * A real full disk on the docker runtime (issue 41): 4 validators in containers, validator-1's
 * store on a 8MiB tmpfs mount of its container (the manifest's disk), filled by `devnet disk
 * --full` through the container (its node runs the filler) until the system answers ENOSPC. It
 * logs the system's own error, not the fault layer's, shows it with backend tmpfs, stands still
 * while the others go on; freed, it is back in consensus. The whole-history invariants hold at the
 * end (Testnet.stop). Skipped without an engine, a failure under CI=true.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dockerSkip } from '../support/dockerEngine.js';
import { backAfterFree, diskTestnet, standsStillFull } from './diskTestnet.js';

const MANIFEST = {
  validators: [{}, { disk: { size: '8MiB' } }, {}, {}],
  block_time: '400ms',
  epoch_length: 1000,
  seed: 'disk-tmpfs-docker',
};

describe('a real full disk (tmpfs) on the docker runtime', {
  skip: await dockerSkip('the docker disk test'),
}, () => {
  const { net, step } = diskTestnet(MANIFEST, 'disk-tmpfs-docker', 'docker');

  step(
    "its container's tmpfs filled: the system refuses, it says so, stands still; the others go on",
    async () => {
      const node = net().node('validator-1');
      const marks = await net().logMarks();
      assert.equal((await node.diskFull()).full, true);
      const status = await standsStillFull(net(), marks, '"msg":"disk full:');
      assert.match(status.disk.error ?? '', /^disk full: .*no space left on device/i);
      assert.equal(status.disk.faults?.full, false, 'the layer is not told the disk is full');
      const shown = (await net().devnet.status()).find((n) => n.name === 'validator-1')!;
      assert.equal(shown.disk.backend, 'tmpfs');
      assert.equal(
        (await net().devnet.status()).find((n) => n.name === 'validator-0')!.disk.backend,
        'layer',
      );
    },
  );

  step('freed: it is back in consensus', async () => {
    const marks = await net().logMarks();
    assert.equal((await net().node('validator-1').diskFree()).full, false);
    await backAfterFree(net(), marks);
  });

  test('stop: the whole-history invariants hold', { timeout: 300_000 }, async () => {
    await net().stop();
  });
});
