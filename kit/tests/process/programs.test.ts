/**
 * The process spawner: output kept in memory and in a file, readiness by a line, a stop that
 * escalates and takes the process group along, programs killed when their starter exits or is
 * told to stop, and programs run to their end as a person runs a command.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findOnPath, procState, runProgram, startProgram, stopAllPrograms } from '../../src/process/index.js';
import { waitFor } from '../../src/wait/index.js';

const HARNESS = new URL('../../src/process/index.js', import.meta.url).href;
const node = (code: string) => ['-e', code];

/** A marker no other process on the machine has on its command line. */
const marker = () => `harness-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

const gone = (pid: number, mark: string) =>
  waitFor(`process ${pid} to be gone`, 5_000, async () => (await procState(pid, mark)) === 'absent', {
    pollMs: 20,
  });

describe('the process spawner', () => {
  const dirs: string[] = [];
  after(async () => {
    await stopAllPrograms();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('keeps stdout and stderr in memory and in the log file, and is ready on a line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'harness-programs-'));
    dirs.push(dir);
    const logFile = join(dir, 'p.log');
    const p = startProgram({
      args: node("console.log('one'); console.error('listening on 4242'); setInterval(() => {}, 1000);"),
      name: 'p',
      logFile,
    });
    const m = await p.waitForLine(/listening on (\d+)/, 5_000);
    assert.equal(m[1], '4242');
    assert.deepEqual([...p.lines()].sort(), ['listening on 4242', 'one']);
    assert.ok(p.running);
    assert.deepEqual(await p.stop(), { code: null, signal: 'SIGTERM' });
    assert.equal(p.running, false);
    assert.deepEqual((await readFile(logFile, 'utf8')).split('\n').sort(), ['', 'listening on 4242', 'one']);
  });

  it('a program that ends before its ready line fails the wait at once, quoting its output', async () => {
    const p = startProgram({ args: node("console.error('no genesis'); process.exit(3);"), name: 'early' });
    const started = Date.now();
    await assert.rejects(p.waitForLine(/RPC listening/, 10_000, 'its RPC URL'), (e: Error) => {
      assert.match(
        e.message,
        /^early ended before it printed its RPC URL: early: exited \(code 3, signal null\)/,
      );
      assert.match(e.message, /no genesis/);
      return true;
    });
    assert.ok(Date.now() - started < 5_000, 'not at the end of the bound');
  });

  it('stop escalates to SIGKILL after the grace period and takes the process group along', {
    timeout: 15_000,
  }, async () => {
    const mark = marker();
    // sh starts a node that ignores SIGTERM, in sh's process group, and says its pid.
    const p = startProgram({
      command: 'sh',
      args: [
        '-c',
        `node -e "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)" ${mark} & echo $!; wait`,
      ],
    });
    const child = Number((await p.waitForLine(/^(\d+)$/, 5_000))[1]);
    await p.waitForLine(/^ready$/, 5_000);
    const started = Date.now();
    await p.stop('SIGTERM', 300);
    assert.ok(Date.now() - started >= 300, 'the SIGTERM was ignored: ended by the SIGKILL after the grace');
    await gone(child, mark);
  });

  it('the programs of a process that exits, or is told to stop, are killed with it', {
    timeout: 30_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'harness-programs-'));
    dirs.push(dir);
    for (const end of ['process.exit(0)', "process.kill(process.pid, 'SIGTERM')"]) {
      const mark = marker();
      const script = join(dir, 'starter.mjs');
      await writeFile(
        script,
        `import { startProgram } from ${JSON.stringify(HARNESS)};
const p = startProgram({ args: ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(mark)}] });
console.log(p.pid);
setTimeout(() => { ${end}; }, 200);
setInterval(() => {}, 1000);
`,
      );
      const starter = await runProgram({ args: [script], timeoutMs: 10_000 });
      assert.equal(starter.timedOut, false, `${end}: the starter ended`);
      assert.equal(starter.code, end.includes('SIGTERM') ? 128 + 15 : 0, starter.stderr);
      await gone(Number(starter.stdout.trim()), mark);
    }
  });

  it('runProgram gives the exit code, stdout and stderr apart, takes input, and kills what outlives its bound', async () => {
    const r = await runProgram({
      args: node(
        "process.stdin.pipe(process.stdout); process.stdin.on('end', () => { console.error('err'); process.exitCode = 2; });",
      ),
      input: 'in\n',
    });
    assert.deepEqual(r, { code: 2, stdout: 'in\n', stderr: 'err\n', timedOut: false });
    const slow = await runProgram({ args: node('setTimeout(() => {}, 60_000)'), timeoutMs: 200 });
    assert.equal(slow.timedOut, true);
    assert.equal(slow.code, 128 + 9);
    const missing = await runProgram({ command: '/no/such/program', args: [] });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /ENOENT/);
  });

  it('findOnPath finds an executable by name, or says null', () => {
    assert.match(findOnPath('no-such-program', 'sh') ?? '', /\/sh$/);
    assert.equal(findOnPath('no-such-program'), null);
  });
});
