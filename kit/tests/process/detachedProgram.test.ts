/**
 * One detached program by its files (src/process/detachedProgram.ts): started once, found again
 * by its pid file and the marker on its command line, stopped and, under its exit waiter, reaped
 * before `stop` returns; a pid file naming another process (a pid reused) is not taken for it,
 * and that process is left alone.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DetachedProgram, procState } from '../../src/process/index.js';
import { waitFor } from '../../src/wait/index.js';

describe('a detached program, by its files', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'detached-program-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const program = (name: string) => {
    const marker = `detached-program-test-${name}-${process.pid}`;
    return new DetachedProgram({
      what: name,
      command: process.execPath,
      // The marker rides on the command line as an argument the script ignores.
      args: ['-e', 'setInterval(() => {}, 1000)', marker],
      pidFile: join(dir, `${name}.pid`),
      logFile: join(dir, `${name}.log`),
      exitFile: join(dir, `${name}.exit`),
      marker,
      graceMs: 2_000,
    });
  };

  it('starts once, is found again by its files, and is reaped when stop returns', async () => {
    const p = program('a');
    const pid = await p.start();
    // Its command line shows the marker once the waiter's shell has exec'd it (a moment, on a busy machine).
    await waitFor(
      'the program found by its pid file and marker',
      10_000,
      async () => (await p.pid()) === pid,
    );
    assert.equal(await program('a').start(), pid, 'a second start finds it running');
    assert.deepEqual(await p.stop(), [`process a (pid ${pid})`]);
    assert.equal(await procState(pid, 'detached-program-test-a'), 'absent', 'gone, not a zombie');
    assert.match(
      await readFile(join(dir, 'a.exit'), 'utf8'),
      /^143\n?$/,
      'its waiter wrote how it ended (SIGTERM)',
    );
    assert.equal(existsSync(join(dir, 'a.pid')), false);
    assert.equal(await p.pid(), null);
    assert.deepEqual(await p.stop(), [], 'stopping it again stops nothing');
  });

  it('a pid file naming another process is not taken for it, and that process is left alone', async () => {
    const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(dir, 'b.pid'), `${stranger.pid}\n`);
      const p = program('b');
      assert.equal(await p.pid(), null);
      assert.deepEqual(await p.stop(), []);
      assert.equal(stranger.exitCode, null, 'the stranger runs on');
      assert.notEqual(await procState(stranger.pid!, ''), 'absent');
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});
