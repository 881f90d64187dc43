/**
 * A git ref built once into the build cache: a real older commit of this repository (git archive,
 * its dependencies, its own npm run build), whose chain-node runs; a second use builds nothing.
 * The build's time goes to the test's output (CI time: docs/BENCHMARKS.md). The lock that keeps
 * two devnets from building one commit at once: the second waits for the first, and a lock left
 * by a process that is gone is taken over.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runProgram } from '@chain-devnet/node/harness';
import { withBuildLock } from '../../src/versions/buildLock.js';
import { BUILD_MARKER, buildCacheDir, resolveCommit } from '../../src/versions/gitBuild.js';
import { chainNodeProgram } from '../../src/versions/resolve.js';
import { OLDER_COMMIT, olderBuild } from './olderBuild.js';

describe('a git ref built into the cache', { timeout: 20 * 60_000 }, () => {
  test('an older commit is built once: its chain-node runs, and the next use builds nothing', async () => {
    assert.equal(await resolveCommit(OLDER_COMMIT.slice(0, 10)), OLDER_COMMIT);
    const lines: string[] = [];
    const dir = await olderBuild((l) => lines.push(l));
    assert.equal(dir, join(buildCacheDir(), OLDER_COMMIT));
    const marker = JSON.parse(await readFile(join(dir, BUILD_MARKER), 'utf8')) as {
      commit: string;
      seconds: number;
    };
    assert.equal(marker.commit, OLDER_COMMIT);
    // Built now (a fresh cache: CI) or by an earlier run: said on the way when built now.
    if (lines.length > 0) assert.match(lines[0]!, /building commit 63f6fa17876c once into /);
    console.log(
      `# the build of ${OLDER_COMMIT.slice(0, 12)} took ${marker.seconds.toFixed(1)} s${lines.length > 0 ? ' (now)' : ' (an earlier run)'}`,
    );
    const program = chainNodeProgram(dir);
    assert.ok(program?.startsWith(dir), `a chain-node in ${dir}`);
    if (program === null) return;
    const help = await runProgram({ args: [program, '--help'], timeoutMs: 60_000 });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /start/);
    // No temporary folder or lock left behind.
    assert.ok(!existsSync(`${dir}.tmp`) && !existsSync(`${dir}.lock`));

    const again: string[] = [];
    assert.equal(await olderBuild((l) => again.push(l)), dir);
    assert.deepEqual(again, [], 'the second use builds nothing and says nothing');
  });
});

describe('the build lock', () => {
  let dir = '';
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('a second builder waits until the first is done; the lock is gone after both', async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-build-lock-'));
    const lock = join(dir, 'x.lock');
    const events: string[] = [];
    let release: () => void = () => undefined;
    const first = withBuildLock(
      lock,
      10_000,
      () => events.push('first waited'),
      async () => {
        events.push('first in');
        await new Promise<void>((r) => {
          release = r;
        });
        events.push('first out');
      },
    );
    while (!events.includes('first in')) await new Promise((r) => setTimeout(r, 5));
    const second = withBuildLock(
      lock,
      10_000,
      () => events.push('second waits'),
      async () => {
        events.push('second in');
      },
    );
    while (!events.includes('second waits')) await new Promise((r) => setTimeout(r, 5));
    assert.ok(existsSync(lock));
    release();
    await Promise.all([first, second]);
    assert.deepEqual(events, ['first in', 'second waits', 'first out', 'second in']);
    assert.ok(!existsSync(lock));
  });

  test('a lock whose process is gone is taken over', async () => {
    dir ||= await mkdtemp(join(tmpdir(), 'devnet-build-lock-'));
    const lock = join(dir, 'stale.lock');
    // A pid that was real and has ended.
    const ended = await runProgram({ command: 'sh', args: ['-c', 'echo $$'], timeoutMs: 10_000 });
    await writeFile(lock, ended.stdout);
    let ran = false;
    await withBuildLock(
      lock,
      10_000,
      () => undefined,
      async () => {
        ran = true;
      },
    );
    assert.ok(ran);
    assert.ok(!existsSync(lock));
  });
});
