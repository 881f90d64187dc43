/**
 * The threads runtime's host: one detached process of the devnet (`devnet host --home H`, started
 * by the first node start) that runs every node of it as a worker thread (thread.ts), so that the
 * nodes share one Node binary, one libuv and one process's memory instead of one each. It answers
 * the commands' requests on its socket (control.ts) and goes away by itself once no node is left,
 * or on SIGTERM, after stopping every node as `devnet stop` would.
 */
import { rmSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Layout } from '../../base/layout.js';
import {
  badRequest,
  type HostAnswer,
  type HostRequest,
  hostDir,
  hostPidFile,
  type StartRequest,
  socketPathOf,
} from './control.js';
import { NodeThread, ThreadFilesError } from './thread.js';

/** A request is a line of JSON of a few hundred bytes; more is not one. */
const REQUEST_MAX_BYTES = 64 * 1024;
/** How long the host stays with no node before it goes (a restart's stop and start fit in it). */
const IDLE_MS = 2_000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const OPS = new Set(['start', 'stop', 'kill', 'pause', 'resume', 'state']);

/** Runs the host until it has no node left (after one came) or `stop` aborts; false: another host runs. */
export async function runHost(
  layout: Layout,
  log: (line: string) => void,
  stop: AbortSignal,
): Promise<boolean> {
  const path = socketPathOf(layout);
  // Only who may enter the devnet's folder may reach the socket (a folder made before, by the
  // host's spawner for its log, has the usual mode).
  await mkdir(hostDir(layout), { recursive: true });
  await chmod(hostDir(layout), 0o700);
  const threads = new Map<string, NodeThread>();
  /** Starts whose files are being made, by node name. */
  const starting = new Map<string, Promise<HostAnswer>>();
  let busy = 0;
  let closing = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let done: () => void = () => undefined;
  const over = new Promise<void>((resolve) => {
    done = resolve;
  });

  const checkIdle = () => {
    clearTimeout(idleTimer);
    if (threads.size > 0 || busy > 0 || closing) return;
    idleTimer = setTimeout(() => {
      if (threads.size === 0 && busy === 0) done();
    }, IDLE_MS);
  };

  /** A node's thread started, or the start refused with what is wrong (its files), nothing started. */
  const startThread = async (r: StartRequest): Promise<HostAnswer> => {
    let started: NodeThread;
    try {
      started = await NodeThread.create(r, log);
    } catch (e) {
      if (!(e instanceof ThreadFilesError)) throw e;
      log(`${r.name}: not started: ${e.message}`);
      return { ok: false, code: 'RUNTIME', message: e.message };
    }
    threads.set(r.name, started);
    log(`${r.name}: started (${r.program})`);
    void started.ended.then((status) => {
      if (threads.get(r.name) === started) threads.delete(r.name);
      log(`${r.name}: ended with ${status}`);
      checkIdle();
    });
    await started.online();
    return { ok: true, state: 'running' };
  };

  const handle = async (r: HostRequest): Promise<HostAnswer> => {
    if (closing) return { ok: false, code: 'CLOSING', message: 'the host is going away' };
    const t = threads.get(r.name);
    if (r.op === 'start') {
      if (t !== undefined) return { ok: true, state: t.state() };
      // A second start while the first makes its files: the same answer.
      const pending = starting.get(r.name);
      if (pending !== undefined) return pending;
      const answer = startThread(r).finally(() => starting.delete(r.name));
      starting.set(r.name, answer);
      return answer;
    }
    if (t === undefined) {
      if (r.op === 'state' || r.op === 'stop') return { ok: true, state: 'stopped' };
      return { ok: false, code: 'UNKNOWN_NODE', message: `${r.name} is not running: cannot ${r.op} it` };
    }
    if (r.op === 'state') return { ok: true, state: t.state() };
    if (r.op === 'stop') await t.stop();
    else if (r.op === 'kill') await t.end();
    else if (r.op === 'pause') await t.pause();
    else t.resume();
    return { ok: true, state: r.op === 'pause' ? 'paused' : r.op === 'resume' ? 'running' : 'stopped' };
  };

  const serve = (socket: Socket) => {
    busy += 1;
    clearTimeout(idleTimer);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > REQUEST_MAX_BYTES) socket.destroy();
    });
    socket.on('end', () => {
      const request = readRequest(text);
      void ('op' in request ? handle(request) : Promise.resolve(request))
        .catch((e: Error): HostAnswer => ({ ok: false, code: 'RUNTIME', message: e.message }))
        .then((answer) => socket.end(`${JSON.stringify(answer)}\n`));
    });
    socket.on('close', () => {
      busy -= 1;
      checkIdle();
    });
  };

  // Half-open: the answer is written after the request has ended (the client ends its side first).
  const server = createServer({ allowHalfOpen: true }, serve);
  if (!(await listenOn(server, path))) return false;
  await writeFile(hostPidFile(layout), `${process.pid}\n`);
  log(`host of ${layout.home} listening on ${path}`);
  stop.addEventListener('abort', done, { once: true });
  checkIdle();
  await over;

  closing = true;
  log(`stopping ${threads.size} node(s)`);
  await Promise.all([...threads.values()].map((t) => t.stop()));
  server.close();
  rmSync(path, { force: true });
  await rm(hostPidFile(layout), { force: true });
  log('host ended');
  return true;
}

/** Listens on the socket; a socket left by a host that died is taken over, a live host's is not. */
async function listenOn(server: Server, path: string): Promise<boolean> {
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      if (await answers(path)) return false;
      rmSync(path, { force: true });
    }
  }
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** A request, or the answer to one that is not. */
function readRequest(text: string): HostRequest | HostAnswer {
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    return badRequest('a request is one JSON object');
  }
  const o = r as Partial<StartRequest> & { op?: unknown; name?: unknown };
  if (typeof o !== 'object' || o === null || typeof o.op !== 'string' || !OPS.has(o.op))
    return badRequest(`op must be one of ${[...OPS].join(', ')}`);
  if (typeof o.name !== 'string' || !NAME.test(o.name)) return badRequest('name must be a node name');
  if (o.op !== 'start') return { op: o.op as Exclude<HostRequest['op'], 'start'>, name: o.name };
  for (const f of ['program', 'logFile', 'exitFile'] as const)
    if (typeof o[f] !== 'string' || !o[f].startsWith('/')) return badRequest(`${f} must be an absolute path`);
  if (!Array.isArray(o.args) || !o.args.every((a) => typeof a === 'string'))
    return badRequest('args must be an array of strings');
  return o as StartRequest;
}
