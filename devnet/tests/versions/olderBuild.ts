/**
 * The older build of this repository the version tests run: a real commit before the versions
 * of nodes existed (its nodes answer no GET /upgrades: their version is "unknown"), built into the
 * build cache once (versions/gitBuild.ts) by whichever test needs it first; the others reuse it.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { devnetCli } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { ManifestValidator } from '../../src/spec/manifest.js';
import { gitBuild } from '../../src/versions/gitBuild.js';

export const OLDER_COMMIT = '63f6fa17876cfbfa9eb58a290a3e573c59125a94';
export const OLDER_VERSION = `git:${OLDER_COMMIT}`;
/** How status shows it. */
export const OLDER_SHOWN = `git:${OLDER_COMMIT.slice(0, 12)}`;

/** Its build folder, built now unless it was; `progress` hears the build's lines. */
export function olderBuild(progress: (line: string) => void = () => undefined): Promise<string> {
  return gitBuild(OLDER_COMMIT, OLDER_COMMIT, progress);
}

/** `devnet up` of these validators (400 ms blocks, no monitoring, no panel) on `runtime`, its manifest in `dir`. */
export async function upWithVersions(
  dir: string,
  home: string,
  runtime: 'process' | 'docker',
  validators: ManifestValidator[],
): Promise<void> {
  const manifest = join(dir, 'devnet.json');
  await writeFile(manifest, JSON.stringify({ validators, block_time: '400ms' }));
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
