/**
 * The priv-validator's files over the disk fault layer (disk/files.ts), a real home in a
 * temporary folder: a signature leaves the node only once its record is fsynced, file and folder
 * (with lose_unsynced, what a kill keeps is read back from the disk: the signature is there; a
 * replace without the folder's fsync loses it, which shows the layer would catch a missing one);
 * a full disk withholds every signature, changes no file and is said once; slow writes and
 * fsyncs hold the signature back by their delay (a recording block, no sleeps).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { voteBytes } from '../../../src/chain/index.js';
import type { SignRequest } from '../../../src/consensus/signer.js';
import { NO_DISK_FAULTS } from '../../../src/disk/faults.js';
import { faultyFiles, REAL_FILES } from '../../../src/disk/files.js';
import { DiskHealth } from '../../../src/disk/health.js';
import { DiskLayer } from '../../../src/disk/layer.js';
import {
  openPrivValidator,
  PRIV_VALIDATOR_STATE_FILE,
  readPrivValidatorState,
} from '../../../src/home/privValidator.js';
import { createMetrics, type NodeMetrics } from '../../../src/metrics/metrics.js';
import { ManualTicker } from '../../../src/util/ticker.js';
import { key } from '../../fixtures.js';

const CHAIN = 'chain-devnet-1';
const A = 'aa'.repeat(32);
const me = key('privval-disk');
const prevote = (height: number, round: number): SignRequest => ({
  height,
  round,
  step: 'prevote',
  signBytes: voteBytes(CHAIN, 'prevote', height, round, A),
  blockHash: A,
});

describe("the priv-validator's files over the disk fault layer", () => {
  let home: string;
  let metrics: NodeMetrics;
  let logger: ReturnType<typeof memoryLogger>;
  let blocked: number[];
  let layer: DiskLayer;
  let health: DiskHealth;
  const open = () =>
    openPrivValidator(home, me.privateKey, metrics, logger, { files: faultyFiles(layer), health });
  /** What a node killed now finds on its disk. */
  const afterKill = () => readPrivValidatorState(join(home, PRIV_VALIDATOR_STATE_FILE), me.privateKey);

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'privval-disk-'));
    metrics = createMetrics();
    logger = memoryLogger();
    blocked = [];
    layer = new DiskLayer(new ManualTicker(), (ms) => blocked.push(ms));
    health = new DiskHealth(logger, () => 0);
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('lose_unsynced: every signature returned is on the disk a kill leaves (file and folder fsynced first)', async () => {
    layer.set({ ...NO_DISK_FAULTS, loseUnsynced: true });
    const signer = await open();
    for (let h = 1; h <= 3; h++) {
      const signature = signer.sign(prevote(h, 0));
      assert.ok(signature !== null);
      assert.deepEqual(
        (({ height, signature: s }) => ({ height, s }))((await afterKill()).last!),
        { height: h, s: signature },
        `height ${h}: on disk before it was returned`,
      );
    }
  });

  it('the check has teeth: a replace without the folder fsync is lost to a kill under lose_unsynced', async () => {
    const signer = await open();
    assert.ok(signer.sign(prevote(1, 0)) !== null);
    layer.set({ ...NO_DISK_FAULTS, loseUnsynced: true });
    const files = faultyFiles(layer, REAL_FILES);
    const path = join(home, PRIV_VALIDATOR_STATE_FILE);
    const fd = files.open(`${path}.tmp`, 'write', 0o600);
    files.write(fd, 'not the state');
    files.fsync(fd);
    files.close(fd);
    files.rename(`${path}.tmp`, path); // and no fsync of the folder
    assert.equal((await afterKill()).last?.height, 1, 'the rename never reached the disk');
    assert.doesNotMatch(await readFile(path, 'utf8'), /not the state/);
  });

  it('full: no signature leaves the node, no file changes, the failure is said once; freed, it signs again', async () => {
    const signer = await open();
    const first = signer.sign(prevote(1, 0));
    layer.set({ ...NO_DISK_FAULTS, full: true });
    const before = await readFile(join(home, PRIV_VALIDATOR_STATE_FILE), 'utf8');
    assert.equal(signer.sign(prevote(2, 0)), null);
    assert.equal(signer.sign(prevote(2, 1)), null);
    assert.equal(await readFile(join(home, PRIV_VALIDATOR_STATE_FILE), 'utf8'), before);
    assert.equal(signer.current.last?.signature, first, 'the state in memory stays that of the disk');
    assert.deepEqual(health.state.failing, ['priv-validator']);
    assert.match(health.state.error ?? '', /^disk full: ENOSPC: no space left on device/);
    const refused = (await metrics.signaturesRefused.get()).values.find(
      (v) => v.labels.reason === 'unrecorded',
    );
    assert.equal(refused?.value, 2);
    assert.equal(logger.lines.filter((l) => l.level === 'error').length, 1, 'said once, not once a vote');
    layer.set(NO_DISK_FAULTS);
    const again = signer.sign(prevote(2, 1));
    assert.ok(again !== null);
    assert.equal(health.state.writable, true);
    assert.equal((await afterKill()).last?.signature, again);
  });

  it('slow writes and fsyncs: the signature waits a write and two fsyncs (file, folder) of the set delays', async () => {
    layer.set({ ...NO_DISK_FAULTS, writeDelayMs: 10, fsyncDelayMs: 50 });
    const signer = await open();
    blocked = [];
    assert.ok(signer.sign(prevote(1, 0)) !== null);
    assert.deepEqual(blocked, [10, 50, 50]);
  });
});
