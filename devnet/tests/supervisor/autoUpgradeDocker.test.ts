/**
 * `auto_upgrade` on the docker runtime (haltedAndRestarted.ts): validators in containers of an
 * older build halt at a real plan's height (the container's exit code 3), the supervisor makes
 * each container again from this checkout's image on its volume, the migration is applied and the
 * chain goes on; each node's `devnet logs` still holds the halted container's 'UPGRADE NEEDED'
 * line and exit code. Nothing of the devnet is left on the engine. Skipped without an engine
 * outside CI.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dockerLeftovers, dockerSkip } from '../support/dockerEngine.js';
import { haltedAndRestarted } from './haltedAndRestarted.js';

const skip = await dockerSkip('the auto-upgrade supervisor on docker');

describe('the auto-upgrade supervisor on the docker runtime', { skip, timeout: 15 * 60_000 }, () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-supervisor-docker-'));
  });
  after(async () => {
    assert.deepEqual(await dockerLeftovers(join(dir, 'planned')), []);
    await rm(dir, { recursive: true, force: true });
  });

  test("a container that halts for a plan is made again on the plan's version, the migration applied", () =>
    haltedAndRestarted(dir, 'docker'));
});
