/**
 * The lock between processes (one build of a commit at a time, one port draw at a time): the second
 * waits for the first, and a lock left by a process that is gone is taken over.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runProgram, withFileLock } from '../../src/process/index.js';

describe('the file lock', () => {
  let dir = '';
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('a second builder waits until the first is done; the lock is gone after both', async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-file-lock-'));
    const lock = join(dir, 'x.lock');
    const events: string[] = [];
    let release: () => void = () => undefined;
    const first = withFileLock(
      lock,
      { what: 'the lock', timeoutMs: 10_000, pollMs: 250, onWait: () => events.push('first waited') },
      async () => {
        events.push('first in');
        await new Promise<void>((r) => {
          release = r;
        });
        events.push('first out');
      },
    );
    while (!events.includes('first in')) await new Promise((r) => setTimeout(r, 5));
    const second = withFileLock(
      lock,
      { what: 'the lock', timeoutMs: 10_000, pollMs: 250, onWait: () => events.push('second waits') },
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
    dir ||= await mkdtemp(join(tmpdir(), 'chain-file-lock-'));
    const lock = join(dir, 'stale.lock');
    // A pid that was real and has ended.
    const ended = await runProgram({ command: 'sh', args: ['-c', 'echo $$'], timeoutMs: 10_000 });
    await writeFile(lock, ended.stdout);
    let ran = false;
    await withFileLock(
      lock,
      { what: 'the lock', timeoutMs: 10_000, pollMs: 250, onWait: () => undefined },
      async () => {
        ran = true;
      },
    );
    assert.ok(ran);
    assert.ok(!existsSync(lock));
  });
});
