/**
 * Older images devnet built are removed after a build, beyond the newest few, never one a
 * container uses nor one devnet did not build. Against the engine, with tiny images of a
 * repository of this test's own (FROM scratch, no layers), removed at the end.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pause } from '@chain-devnet/kit/wait';
import { docker } from '../../../src/runtime/docker/engine.js';
import { buildFromFolder, removeOlderBuiltImages } from '../../../src/runtime/docker/images.js';
import { dockerSkip } from '../../support/dockerEngine.js';

const skip = await dockerSkip('built images test');
const PREFIX = 'chain-devnet-test/built-';

/** What a killed earlier run of this test left: its images and the containers of them. */
async function removeEarlierRuns(): Promise<void> {
  const earlier = (await docker().listImages())
    .flatMap((i) => i.RepoTags ?? [])
    .filter((t) => t.startsWith(PREFIX));
  for (const c of await docker().listContainers({ all: true }))
    if (earlier.includes(c.Image)) await docker().getContainer(c.Id).remove({ force: true });
  for (const tag of earlier) await docker().getImage(tag).remove({ force: true });
}

test('removeOlderBuiltImages keeps the newest, and any a container uses or devnet did not build', {
  skip,
}, async () => {
  const repository = `${PREFIX}${process.pid}`;
  const dir = await mkdtemp(join(tmpdir(), 'built-images-'));
  const tags = [0, 1, 2, 3].map((i) => `${repository}:${i}`);
  const handMade = `${repository}:by-hand`;
  let container: string | null = null;
  await removeEarlierRuns();
  try {
    for (const [i, tag] of tags.entries()) {
      await writeFile(join(dir, 'Dockerfile'), `FROM scratch\nLABEL n=${i}\n`);
      await buildFromFolder(dir, tag);
      // Created is in whole seconds: each image a second newer than the one before.
      await pause(1100);
    }
    // Built without devnet's label, after the others (so the newest of the repository).
    const stream = await docker().buildImage(
      { context: dir, src: ['Dockerfile'] },
      { t: handMade, buildargs: {}, labels: { n: 'by-hand' } },
    );
    await new Promise((resolve, reject) =>
      docker().modem.followProgress(stream, (e: Error | null) => (e ? reject(e) : resolve(undefined))),
    );
    // The oldest is in use by a container that never ran.
    container = (await docker().createContainer({ Image: tags[0], Cmd: ['none'] })).id;

    const removed = await removeOlderBuiltImages(repository, 1);

    assert.deepEqual(removed, [tags[2], tags[1]]);
    const left = (await docker().listImages())
      .flatMap((i) => i.RepoTags ?? [])
      .filter((t) => t.startsWith(`${repository}:`))
      .sort();
    assert.deepEqual(left, [tags[0], tags[3], handMade].sort());
  } finally {
    if (container !== null) await docker().getContainer(container).remove({ force: true });
    for (const tag of [...tags, handMade])
      await docker()
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});
