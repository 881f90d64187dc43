/**
 * The older build of this repository the version tests run: OLDER_COMMIT of the node's harness
 * (the one older commit every test that needs a real older build runs, so that CI builds one),
 * built into the build cache once through the devnet's own path (a git version: resolve.ts, the
 * node package's builder) by whichever test needs it first; the others reuse it.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OLDER_COMMIT } from '@chain-devnet/node/builds';
import { devnetCli } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { Manifest, ManifestValidator } from '../../src/spec/manifest.js';
import { nodeBuild } from '../../src/versions/resolve.js';

export { OLDER_COMMIT };
export const OLDER_VERSION = `git:${OLDER_COMMIT}`;
/** How status shows it. */
export const OLDER_SHOWN = `git:${OLDER_COMMIT.slice(0, 12)}`;
/** The node_version it reports (GET /upgrades; this checkout's node package is newer). */
export const OLDER_NODE_VERSION = '0.1.0';

/** Its build folder, built now unless it was; `progress` hears the build's lines. */
export async function olderBuild(progress: (line: string) => void = () => undefined): Promise<string> {
  const build = await nodeBuild(OLDER_VERSION, progress);
  assert.ok(build.kind === 'built');
  return build.root;
}

/**
 * `devnet up` of these validators (400 ms blocks, no monitoring, no panel) on `runtime`, its
 * manifest in `dir`, with the manifest's `extra` fields (auto_upgrade, …).
 */
export async function upWithVersions(
  dir: string,
  home: string,
  runtime: 'process' | 'docker',
  validators: ManifestValidator[],
  extra: Omit<Manifest, 'validators' | 'block_time'> = {},
): Promise<void> {
  const manifest = join(dir, 'devnet.json');
  await writeFile(manifest, JSON.stringify({ validators, block_time: '400ms', ...extra }));
  const base = await freeDevnetBase(validators.length, false);
  const up = await devnetCli(
    [
      'up',
      '--runtime',
      runtime,
      '--manifest',
      manifest,
      '--base-port',
      String(base),
      '--no-monitoring',
      '--no-ui',
      '--home',
      home,
    ],
    { timeoutMs: 600_000 },
  );
  assert.equal(up.code, 0, up.stderr);
}
