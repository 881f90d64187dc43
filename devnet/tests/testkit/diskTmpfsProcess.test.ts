/**
 * A real full disk on a real devnet (issue 41): 4 validators on processes, validator-1's store on
 * a 8MiB tmpfs of its own (the manifest's disk), filled by `devnet disk --full` until the system
 * answers ENOSPC. It logs the system's own error (level's "No space left on device", not the
 * fault layer's), shows it in its status with backend tmpfs, stands still while the others go on;
 * freed, it is back in consensus, and a restart finds its store whole. The whole-history
 * invariants hold at the end (Testnet.stop), after which the mount is gone; a killed run's mount
 * is gone after the clean-up the next start does (reapLeftovers). Needs root (mount): skipped
 * without, a failure under CI=true.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startProgram } from '@chain-devnet/kit/process';
import { reapLeftovers } from '../../src/testkit/reaper.js';
import { RunRegistry } from '../../src/testkit/registry.js';
import { backAfterFree, diskTestnet, standsStillFull } from './diskTestnet.js';

const root = process.getuid?.() === 0;
if (!root && process.env.CI === 'true') throw new Error('CI=true but not root: a tmpfs cannot be mounted');
const skip = root ? false : 'needs root (mount)';
const mountsUnder = async (home: string) =>
  (await readFile('/proc/self/mounts', 'utf8')).split('\n').filter((l) => l.includes(` ${home}/`));
const MANIFEST = {
  validators: [{}, { disk: { size: '8MiB' } }, {}, {}],
  block_time: '400ms',
  epoch_length: 1000,
  seed: 'disk-tmpfs',
};

describe('a real full disk (tmpfs) on the process runtime', { skip }, () => {
  const { net, step } = diskTestnet(MANIFEST, 'disk-tmpfs');

  step('its tmpfs filled: the system refuses, it says so, stands still; the others go on', async () => {
    const node = net().node('validator-1');
    assert.equal((await mountsUnder(net().home)).length, 1, "one tmpfs, validator-1's");
    const marks = await net().logMarks();
    assert.equal((await node.diskFull()).full, true);
    const status = await standsStillFull(net(), marks, '"msg":"disk full:');
    assert.match(status.disk.error ?? '', /^disk full: .*no space left on device/i);
    assert.doesNotMatch(status.disk.error ?? '', /disk_faults\.json/, "the system's error, not the layer's");
    assert.equal(status.disk.faults?.full, false, 'the layer is not told the disk is full');
    const shown = (await net().devnet.status()).find((n) => n.name === 'validator-1')!;
    assert.equal(shown.disk.backend, 'tmpfs');
    assert.equal(shown.disk.faults?.full, true);
    assert.equal((await net().devnet.status()).find((n) => n.name === 'validator-0')!.disk.backend, 'layer');
  });

  step('freed: it is back in consensus, and a restart finds its store whole', async () => {
    const node = net().node('validator-1');
    const marks = await net().logMarks();
    assert.equal((await node.diskFree()).full, false);
    await backAfterFree(net(), marks);
    const before = await node.height();
    await node.restart();
    await net().expect.synced({ within: { blocks: 30 } });
    assert.ok((await node.height()) >= before, 'its store on the tmpfs kept across the restart');
  });

  test('stop: the whole-history invariants hold, and the mount is gone', { timeout: 300_000 }, async () => {
    const home = net().home;
    await net().stop();
    assert.deepEqual(await mountsUnder(home), []);
  });
});

describe("a killed run's data disks", { skip }, () => {
  test('a killed run leaves its tmpfs mounted; the clean-up of the next start unmounts it', {
    timeout: 240_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'disk-tmpfs-killed-'));
    const env = { TESTKIT_REGISTRY: join(dir, 'registry'), TESTKIT_LOGS_DIR: join(dir, 'logs') };
    const child = startProgram({
      args: [fileURLToPath(new URL('./startTestnet.js', import.meta.url))],
      env: {
        ...process.env,
        ...env,
        TESTKIT_MANIFEST: JSON.stringify({ validators: 2, block_time: '300ms', disk: { size: '4MiB' } }),
      },
      name: 'startTestnet',
    });
    try {
      const home = (await child.waitForLine(/^READY (.+)$/, 120_000))[1]!;
      await child.stop('SIGKILL');
      assert.equal((await mountsUnder(home)).length, 2, "both nodes' tmpfs left by the killed run");
      await reapLeftovers(new RunRegistry(env.TESTKIT_REGISTRY), () => undefined);
      assert.deepEqual(await mountsUnder(home), []);
    } finally {
      await child.stop('SIGKILL').catch(() => undefined);
      await reapLeftovers(new RunRegistry(env.TESTKIT_REGISTRY), () => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
