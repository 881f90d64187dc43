/**
 * Versions on the docker runtime (kept small: the process test covers the rest): a node whose
 * version is an older commit runs a node image built from that commit's build, labelled with its
 * version; another moves onto that image by its name (image:NAME); `devnet upgrade` makes its container again from this checkout's image on the same
 * volume (its blocks kept); the replaced container's last lines and exit code stay in `devnet
 * logs`, before the new container's. Skipped without an engine outside CI.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RpcClient } from '@chain-devnet/node/client';
import { Layout } from '../../src/base/layout.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import type { StatusJson, UpgradeJson } from '../../src/json/jsonShapes.js';
import { docker } from '../../src/runtime/docker/engine.js';
import { VERSION_LABEL } from '../../src/runtime/docker/labels.js';
import { dockerLeftovers, dockerSkip } from '../support/dockerEngine.js';
import { OLDER_NODE_VERSION, OLDER_SHOWN, OLDER_VERSION, olderBuild, upWithVersions } from './olderBuild.js';

const skip = await dockerSkip('node versions on docker');

describe('node versions on the docker runtime', { skip, timeout: 20 * 60_000 }, () => {
  let dir = '';
  let home = '';
  const container = async (name: string) =>
    docker()
      .getContainer(`devnet-${new Layout(home).id}-${name}`)
      .inspect();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-versions-docker-'));
    home = join(dir, 'home');
    await olderBuild();
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    assert.deepEqual(await dockerLeftovers(home), []);
    await rm(dir, { recursive: true, force: true });
  });

  test('a node on an older commit runs an image built from it; upgraded, it runs this checkout with its data', async () => {
    await upWithVersions(dir, home, 'docker', [{ version: OLDER_VERSION }, {}, {}]);
    const [old, current] = [await container('validator-0'), await container('validator-1')];
    assert.notEqual(old.Image, current.Image, 'the older node runs an image of its own');
    assert.equal(old.Config.Labels[VERSION_LABEL], OLDER_VERSION);
    assert.equal(current.Config.Labels[VERSION_LABEL], 'checkout');
    const s = await devnetJson<StatusJson>(['status', '--home', home]);
    assert.deepEqual(
      s.nodes.map((n) => [n.version, n.nodeVersion]),
      [
        [OLDER_SHOWN, OLDER_NODE_VERSION],
        ['checkout', s.nodes[1]!.nodeVersion],
        ['checkout', s.nodes[2]!.nodeVersion],
      ],
    );

    // An image version (image:NAME): validator-1 onto the image the older node runs, by its name.
    const oldImage = old.Config.Image;
    await devnetJson<UpgradeJson>(['upgrade', 'validator-1', '--to', `image:${oldImage}`, '--home', home], {
      timeoutMs: 300_000,
    });
    const imaged = await container('validator-1');
    assert.equal(imaged.Image, old.Image, 'validator-1 runs the image named');
    assert.equal(imaged.Config.Labels[VERSION_LABEL], `image:${oldImage}`);
    const s1 = (await devnetJson<StatusJson>(['status', '--home', home])).nodes[1]!;
    assert.deepEqual([s1.version, s1.nodeVersion], [`image:${oldImage}`, OLDER_NODE_VERSION]);

    const client = new RpcClient(s.nodes[0]!.rpc);
    const block1 = await client.block(1);
    const height = (await client.status()).height;
    const r = await devnetJson<UpgradeJson>(['upgrade', 'validator-0', '--to', 'checkout', '--home', home], {
      timeoutMs: 300_000,
    });
    assert.ok(r.upgraded[0]!.height > height);
    const now = await container('validator-0');
    assert.equal(now.Image, current.Image, 'this checkout image now');
    assert.equal(now.Config.Labels[VERSION_LABEL], 'checkout');
    assert.deepEqual(await client.block(1), block1, 'the same store (its volume)');

    // The old container is gone, its log kept: its lines, how it ended, then the new container's.
    const logs = async (...more: string[]) =>
      (await devnetCli(['logs', 'validator-0', ...more, '--home', home])).stdout.split('\n');
    const marker = 'devnet: validator-0 exited with code 0; started again on checkout';
    const whole = await logs();
    const swap = whole.indexOf(marker);
    assert.ok(swap > 0, `the swap's line after the old container's lines: ${whole.slice(0, 5).join(' | ')}`);
    assert.ok(
      whole.slice(0, swap).some((l) => l.includes('"msg":"stopped"')),
      "the old container's last lines: it stopped gracefully",
    );
    assert.ok(whole.length > swap + 2, 'the new container logs after it');
    // --tail N counts over both: the last line only is the new container's; enough reach back.
    assert.ok(!(await logs('--tail', '1')).includes(marker));
    assert.ok((await logs('--tail', String(whole.length + 10))).includes(marker));
  });
});
