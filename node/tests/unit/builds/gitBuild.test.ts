/**
 * A git ref built once into the build cache: a real older commit of this repository (git archive,
 * its dependencies, its own npm run build), whose chain-node runs; a second use builds nothing.
 * The build's time goes to the test's output (CI time: docs/BENCHMARKS.md). A ref the checkout
 * has no commit of, and a machine without git, are refused saying so. The lock: fileLock.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import {
  BUILD_MARKER,
  buildCacheDir,
  chainNodeProgram,
  GitBuildError,
  gitBuild,
  OLDER_COMMIT,
  resolveCommit,
} from '../../../src/builds/index.js';
import { CHECKOUT, olderBuild } from '../../support/olderBuild.js';

const BUILDS = new URL('../../../src/builds/index.js', import.meta.url).href;

describe('a git ref built into the cache', { timeout: 20 * 60_000 }, () => {
  test('an older commit is built once: its chain-node runs, and the next use builds nothing', async () => {
    assert.equal(await resolveCommit(CHECKOUT, OLDER_COMMIT.slice(0, 10)), OLDER_COMMIT);
    const lines: string[] = [];
    const { dir, chainNode } = await olderBuild((l) => lines.push(l));
    assert.equal(dir, join(buildCacheDir(), OLDER_COMMIT));
    const marker = JSON.parse(await readFile(join(dir, BUILD_MARKER), 'utf8')) as {
      commit: string;
      seconds: number;
    };
    assert.equal(marker.commit, OLDER_COMMIT);
    // Built now (a fresh cache: CI) or by an earlier run: said on the way when built now.
    if (lines.length > 0)
      assert.match(lines[0]!, new RegExp(`building commit ${OLDER_COMMIT.slice(0, 12)} once into `));
    console.log(
      `# the build of ${OLDER_COMMIT.slice(0, 12)} took ${marker.seconds.toFixed(1)} s${lines.length > 0 ? ' (now)' : ' (an earlier run)'}`,
    );
    // Both its programs run: the bundle (what the devnet runs) and the compiled one (the tests').
    const bundle = chainNodeProgram(dir);
    assert.equal(bundle, join(dir, 'node/dist/bundle/chain-node.mjs'));
    for (const program of [bundle, chainNode]) {
      assert.ok(program?.startsWith(dir), `a chain-node in ${dir}`);
      const help = await runProgram({ args: [program!, '--help'], timeoutMs: 60_000 });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /start/);
    }
    // No temporary folder or lock left behind.
    assert.ok(!existsSync(`${dir}.tmp`) && !existsSync(`${dir}.lock`));

    const again: string[] = [];
    assert.equal((await olderBuild((l) => again.push(l))).dir, dir);
    assert.deepEqual(again, [], 'the second use builds nothing and says nothing');
  });
});

describe('a ref that gives no build', () => {
  let bin = '';
  after(async () => {
    if (bin) await rm(bin, { recursive: true, force: true });
  });

  test('a ref the checkout has no commit of: BAD_REF, naming it and the checkout', async () => {
    const e = await resolveCommit(CHECKOUT, 'no-such-ref-here').then(
      () => assert.fail('resolved'),
      (x: unknown) => x,
    );
    assert.ok(e instanceof GitBuildError);
    assert.equal(e.code, 'BAD_REF');
    assert.equal(
      e.message,
      `git:no-such-ref-here: no commit of that name in ${CHECKOUT} (a branch, tag or hash of this repository; git fetch it first if it is elsewhere)`,
    );
  });

  test('a commit that is no full hash is never joined to the cache folder: BAD_REF, nothing built', async () => {
    // A devnet.json from a stranger's archive named "../../home/nodes/x" as a commit, with a build
    // marker written there: the folder it named was taken for a finished build and run.
    const cache = await mkdtemp(join(tmpdir(), 'chain-cache-'));
    const before = process.env.DEVNET_BUILD_CACHE;
    process.env.DEVNET_BUILD_CACHE = join(cache, 'builds');
    try {
      const planted = join(cache, 'planted');
      await mkdir(planted, { recursive: true });
      await writeFile(join(planted, BUILD_MARKER), '{}');
      for (const commit of ['../planted', OLDER_COMMIT.slice(0, 12), `${OLDER_COMMIT}/..`]) {
        const e = await gitBuild({ root: CHECKOUT, ref: commit, commit }).then(
          (dir) => assert.fail(`built ${commit} as ${dir}`),
          (x: unknown) => x,
        );
        assert.ok(e instanceof GitBuildError, String(e));
        assert.equal(e.code, 'BAD_REF');
        assert.match(e.message, /is not a full commit hash/);
      }
      assert.equal(existsSync(join(cache, 'builds')), false, 'nothing made in the cache');
    } finally {
      if (before === undefined) delete process.env.DEVNET_BUILD_CACHE;
      else process.env.DEVNET_BUILD_CACHE = before;
      await rm(cache, { recursive: true, force: true });
    }
  });

  test('no git on this machine: NO_GIT, saying so (not that the commit is missing)', async () => {
    // A PATH with this Node and no git: the builder run in a process of its own.
    bin = await mkdtemp(join(tmpdir(), 'chain-no-git-'));
    await symlink(process.execPath, join(bin, 'node'));
    const script = `import(${JSON.stringify(BUILDS)}).then((h) => h.resolveCommit(${JSON.stringify(CHECKOUT)}, '${OLDER_COMMIT.slice(0, 7)}')).then(
      () => console.log('resolved'),
      (e) => console.log(JSON.stringify({ code: e.code, message: e.message })),
    );`;
    const r = await runProgram({
      args: ['--input-type=module', '-e', script],
      env: { PATH: bin },
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      code: 'NO_GIT',
      message: `git:${OLDER_COMMIT.slice(0, 7)}: git is needed to find and build a commit, and there is no git program here (on PATH): install git`,
    });
  });
});
