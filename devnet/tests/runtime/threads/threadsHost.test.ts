/**
 * The threads runtime's host (runtime/threads/host.ts), run in this process, with a small program
 * in its threads that behaves as chain-node does where a thread differs from a process: output,
 * a SIGTERM handler, a start without one yet, a fail point's SIGKILL to itself, and a beat that
 * shows whether its JavaScript runs; and as its own process (`devnet host`, the bundle), where a
 * start it cannot do (its files) used to end it and every node (issue 39). The real nodes on this
 * runtime: threadsRuntime.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readExitStatus } from '@chain-devnet/kit/process';
import { pause, waitFor } from '@chain-devnet/kit/wait';
import { DevnetError } from '../../../src/base/errors.js';
import { Layout } from '../../../src/base/layout.js';
import {
  ask,
  type HostRequest,
  hostDir,
  hostLogFile,
  hostPidFile,
  hostSocket,
} from '../../../src/runtime/threads/control.js';
import { runHost } from '../../../src/runtime/threads/host.js';
import { ensureHost, stopHost } from '../../../src/runtime/threads/hostProcess.js';

const PROGRAM = `import { writeFileSync } from 'node:fs';
const [mode, beatFile] = process.argv.slice(2);
console.log(JSON.stringify({ argv: process.argv.slice(2) }));
if (mode === 'no-handler') setTimeout(() => undefined, 60_000);
else {
  let n = 0;
  const beat = setInterval(() => writeFileSync(beatFile, String(++n)), 10);
  process.once('SIGTERM', () => {
    clearInterval(beat);
    console.log('stopping on SIGTERM');
    process.exit(0);
  });
  if (mode === 'crash') setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);
}
`;

describe('the threads host', () => {
  let dir: string;
  let layout: Layout;
  let program: string;
  let host: Promise<boolean>;
  const stopHost = new AbortController();
  /** What the first host logged. */
  const hostLog: string[] = [];
  const beatFile = (name: string) => join(dir, `${name}.beat`);
  const beats = async (name: string) => Number(await readFile(beatFile(name), 'utf8').catch(() => '0'));
  const start = (name: string, mode = 'run') =>
    ask(layout, {
      op: 'start',
      name,
      program,
      args: [mode, beatFile(name)],
      logFile: layout.logFile(name),
      exitFile: layout.exitFile(name),
    });
  const op = (o: Exclude<HostRequest['op'], 'start'>, name: string) => ask(layout, { op: o, name });
  const exitOf = (name: string) =>
    waitFor(`${name}'s exit file`, 5_000, () => readExitStatus(layout.exitFile(name)));
  /** The raw answer to a line that is no request. */
  const rawAnswer = (line: string) =>
    new Promise<{ ok: boolean; message?: string }>((resolve, reject) => {
      const s = connect(hostSocket(layout));
      let text = '';
      s.setEncoding('utf8');
      s.on('connect', () => s.end(line));
      s.on('data', (c: string) => {
        text += c;
      });
      s.on('error', reject);
      s.on('close', () => resolve(JSON.parse(text) as { ok: boolean; message?: string }));
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'threads-host-'));
    layout = new Layout(join(dir, 'home'));
    program = join(dir, 'program.mjs');
    await writeFile(program, PROGRAM);
    // As the spawner leaves it: the host's folder made for its log, with the usual mode.
    await mkdir(hostDir(layout), { recursive: true, mode: 0o755 });
    host = runHost(layout, (line) => hostLog.push(line), stopHost.signal);
    await waitFor('the host to listen', 5_000, async () => existsSync(hostPidFile(layout)));
  });

  after(async () => {
    stopHost.abort();
    await host;
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a program in a thread with its arguments, its output in its log', async () => {
    assert.equal(await start('validator-0'), 'running');
    assert.equal(await start('validator-0'), 'running', 'a second start of a running node changes nothing');
    await waitFor('its beat', 5_000, async () => (await beats('validator-0')) > 0);
    const log = await readFile(layout.logFile('validator-0'), 'utf8');
    assert.deepEqual(JSON.parse(log.split('\n')[0]!), { argv: ['run', beatFile('validator-0')] });
    assert.equal(await op('state', 'validator-0'), 'running');
    assert.equal((await stat(hostDir(layout))).mode & 0o777, 0o700, 'the socket is in a folder of mode 700');
  });

  it('pause stops its JavaScript until resume', async () => {
    assert.equal(await op('pause', 'validator-0'), 'paused');
    assert.equal(await op('state', 'validator-0'), 'paused');
    const frozen = await beats('validator-0');
    await pause(150);
    assert.equal(await beats('validator-0'), frozen, 'no beat while paused');
    assert.equal(await op('resume', 'validator-0'), 'running');
    await waitFor('the beat again', 5_000, async () => (await beats('validator-0')) > frozen);
  });

  it('stop is its SIGTERM: its handler runs, the status is its exit code, its last words are in the log', async () => {
    await op('pause', 'validator-0');
    // A paused node is resumed first, so that it can act on the SIGTERM (as SIGCONT before it).
    assert.equal(await op('stop', 'validator-0'), 'stopped');
    assert.equal(await readExitStatus(layout.exitFile('validator-0')), 0);
    assert.match(await readFile(layout.logFile('validator-0'), 'utf8'), /stopping on SIGTERM\n$/);
    assert.equal(await op('state', 'validator-0'), 'stopped');
    assert.equal(await op('stop', 'validator-0'), 'stopped', 'stopping a stopped node is no error');
  });

  it('a program stopped before it handles SIGTERM ends as a process would (143)', async () => {
    await start('validator-1', 'no-handler');
    await op('stop', 'validator-1');
    assert.equal(await exitOf('validator-1'), 143);
  });

  it('kill ends it at once (137); a fail point SIGKILLing itself ends only its own thread', async () => {
    await start('validator-2');
    await start('validator-3', 'crash');
    assert.equal(await exitOf('validator-3'), 137);
    assert.equal(await op('state', 'validator-3'), 'stopped');
    assert.equal(await op('state', 'validator-2'), 'running', 'the other nodes and the host go on');
    const before = await beats('validator-2');
    await waitFor('validator-2 beating on', 5_000, async () => (await beats('validator-2')) > before);
    assert.equal(await op('kill', 'validator-2'), 'stopped');
    assert.equal(await readExitStatus(layout.exitFile('validator-2')), 137);
  });

  it('refuses what cannot be done and what is not a request, and goes on', async () => {
    await assert.rejects(op('kill', 'validator-9'), (e: unknown) => {
      assert.ok(e instanceof DevnetError);
      assert.equal(e.code, 'UNKNOWN_NODE');
      assert.match(e.message, /validator-9 is not running: cannot kill it/);
      return true;
    });
    await assert.rejects(op('pause', 'validator-9'), /not running: cannot pause it/);
    assert.deepEqual(await rawAnswer('{"op":'), {
      ok: false,
      code: 'RUNTIME',
      message: 'a request is one JSON object',
    });
    assert.match((await rawAnswer('{"op":"explode","name":"v"}')).message ?? '', /op must be one of start/);
    assert.match((await rawAnswer('{"op":"state","name":"../x"}')).message ?? '', /name must be a node name/);
    const relative = {
      op: 'start',
      name: 'v',
      program: 'program.mjs',
      args: [],
      logFile: '/l',
      exitFile: '/x',
    };
    assert.match(
      (await rawAnswer(JSON.stringify(relative))).message ?? '',
      /program must be an absolute path/,
    );
    assert.equal(await op('state', 'validator-0'), 'stopped', 'the host still answers');
  });

  it('a start whose files cannot be had is refused with RUNTIME, nothing started; a file failing later is said; the host and its other nodes go on', async () => {
    await start('validator-5');
    const startWith = (name: string, files: { logFile?: string; exitFile?: string }) =>
      ask(layout, {
        op: 'start',
        name,
        program,
        args: ['run', beatFile(name)],
        logFile: files.logFile ?? layout.logFile(name),
        exitFile: files.exitFile ?? layout.exitFile(name),
      });
    const refused = (why: RegExp) => (e: unknown) => {
      assert.ok(e instanceof DevnetError, String(e));
      assert.equal(e.code, 'RUNTIME');
      assert.match(e.message, why);
      return true;
    };
    // A folder as the log file: an error event of its stream ended the host, every node with it.
    const folder = join(dir, 'a-folder');
    await mkdir(folder);
    await assert.rejects(
      startWith('validator-6', { logFile: folder }),
      refused(/^validator-6: its log file .*a-folder cannot be made: EISDIR/),
    );
    // An exit file that cannot be made (/proc takes no new file; a folder is no file): the thread
    // used to run, and the write of its status at its end was a rejection nobody caught.
    const proc = `/proc/devnet-threads-test-${process.pid}.exit`;
    await assert.rejects(
      startWith('validator-7', { exitFile: proc }),
      refused(/^validator-7: its exit file \/proc\/.* cannot be made/),
    );
    await assert.rejects(
      startWith('validator-8', { exitFile: folder }),
      refused(/^validator-8: its exit file .*a-folder cannot be made/),
    );
    for (const n of ['validator-6', 'validator-7', 'validator-8'])
      assert.equal(await op('state', n), 'stopped', `${n} was not started`);
    // An exit file whose folder goes away while the node runs: its status cannot be written at its
    // end; the host says so in its log and goes on.
    const gone = join(dir, 'gone');
    await startWith('validator-9', { exitFile: join(gone, 'validator-9.exit') });
    await waitFor(
      'its beat (its SIGTERM handler is in place)',
      5_000,
      async () => (await beats('validator-9')) > 0,
    );
    await rm(gone, { recursive: true, force: true });
    await writeFile(gone, 'a file where the folder was');
    assert.equal(await op('stop', 'validator-9'), 'stopped');
    assert.ok(
      hostLog.some((l) => /validator-9: ended with 0, but its exit file cannot be written/.test(l)),
      hostLog.join('\n'),
    );
    const before = await beats('validator-5');
    await waitFor('validator-5 beating on', 5_000, async () => (await beats('validator-5')) > before);
    assert.equal(await op('kill', 'validator-5'), 'stopped');
  });

  it("the client refuses what answers on the socket if it is no host's answer", async () => {
    const other = new Layout(join(dir, 'other'));
    await mkdir(join(other.home, 'threads'), { recursive: true });
    const liar = createServer({ allowHalfOpen: true }, (s) => {
      s.on('data', () => undefined);
      s.on('end', () => s.end('<html>not a host</html>'));
    });
    await new Promise<void>((resolve) => liar.listen(hostSocket(other), resolve));
    try {
      await assert.rejects(ask(other, { op: 'state', name: 'validator-0' }), (e: unknown) => {
        assert.ok(e instanceof DevnetError);
        assert.equal(e.code, 'RUNTIME');
        assert.match(e.message, /answered something that is no host's answer/);
        return true;
      });
    } finally {
      liar.close();
    }
  });

  it('a second host of the same devnet stands aside', async () => {
    assert.equal(await runHost(layout, () => undefined, new AbortController().signal), false);
    assert.equal(await op('state', 'validator-0'), 'stopped', 'the first still answers');
  });

  it('ends by itself once no node is left, and a socket it left is taken over by the next', async () => {
    assert.equal(await host, true, 'no node has been left for its idle time');
    assert.equal(existsSync(hostPidFile(layout)), false);
    // A host killed outright leaves its socket file: the next one takes it over.
    await writeFile(hostSocket(layout), '');
    const next = new AbortController();
    host = runHost(layout, () => undefined, next.signal);
    await waitFor('the next host to listen', 5_000, async () => existsSync(hostPidFile(layout)));
    assert.equal(await start('validator-4'), 'running');
    await waitFor(
      'its beat (its SIGTERM handler is in place)',
      5_000,
      async () => (await beats('validator-4')) > 0,
    );
    // Its end (the test's after) stops the node it runs, as devnet down's SIGTERM does.
    stopHost.abort();
    next.abort();
    assert.equal(await host, true);
    assert.equal(await readExitStatus(layout.exitFile('validator-4')), 0);
  });
});

describe('the threads host as its own process (devnet host), given a start it cannot do', () => {
  let dir: string;
  let layout: Layout;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'threads-host-process-'));
    layout = new Layout(join(dir, 'home'));
    await writeFile(join(dir, 'program.mjs'), PROGRAM);
  });
  after(async () => {
    // Its nodes stopped with it (SIGTERM), also when the test failed.
    await stopHost(layout);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses it with RUNTIME and goes on, with its other nodes', async () => {
    await ensureHost(layout);
    const startOf = (name: string, logFile: string) =>
      ask(layout, {
        op: 'start',
        name,
        program: join(dir, 'program.mjs'),
        args: ['run', join(dir, `${name}.beat`)],
        logFile,
        exitFile: layout.exitFile(name),
      });
    assert.equal(await startOf('validator-0', layout.logFile('validator-0')), 'running');
    const folder = join(dir, 'a-folder');
    await mkdir(folder);
    // Before, the host answered `running` and then died of the log stream's error event, its
    // other nodes with it.
    await assert.rejects(startOf('validator-1', folder), (e: unknown) => {
      assert.ok(e instanceof DevnetError, String(e));
      assert.equal(e.code, 'RUNTIME');
      assert.match(e.message, /its log file .*a-folder cannot be made: EISDIR/);
      return true;
    });
    await pause(200);
    assert.equal(
      await ask(layout, { op: 'state', name: 'validator-0' }),
      'running',
      'the host still runs it',
    );
    assert.match(await readFile(hostLogFile(layout), 'utf8'), /validator-1: not started: /);
  });
});
