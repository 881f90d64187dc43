/**
 * The threads runtime's host: one detached process of the devnet (`devnet host --home H`, started
 * by the first node start) that runs every node of it as a worker thread (thread.ts), so that the
 * nodes share one Node binary, one libuv and one process's memory instead of one each. It answers
 * the commands' requests on its socket (control.ts; each request to a node is hostNodes.ts's) and
 * goes away by itself once no node is left, or on SIGTERM, after stopping every node as `devnet
 * stop` would.
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
import { HostNodes } from './hostNodes.js';

/** A request is a line of JSON of a few hundred bytes; more is not one. */
const REQUEST_MAX_BYTES = 64 * 1024;
/** How long the host stays with no node before it goes (a restart's stop and start fit in it). */
const IDLE_MS = 2_000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const OPS = new Set(['start', 'stop', 'kill', 'pause', 'resume', 'state']);

/**
 * When the host goes: once `end` is called (the caller's abort), or once it has had no node and
 * no open connection for IDLE_MS.
 */
class Lifetime {
  private connections = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Resolves when the host is to go. */
  readonly over: Promise<void>;
  /** Ends the host's life now (bound: it is handed to the abort signal as it is). */
  readonly end: () => void;

  constructor(private readonly nodes: HostNodes) {
    let end: () => void = () => undefined;
    // The executor runs at once: `end` is the promise's resolve before it is kept.
    this.over = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.end = end;
  }

  /** A connection came: no countdown while a request may be on its way. */
  opened(): void {
    this.connections += 1;
    clearTimeout(this.idleTimer);
  }

  closed(): void {
    this.connections -= 1;
    this.checkIdle();
  }

  /** Starts the countdown to the end when no node and no connection is left (and not while closing). */
  checkIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.nodes.size > 0 || this.connections > 0 || this.nodes.closing) return;
    this.idleTimer = setTimeout(() => {
      if (this.nodes.size === 0 && this.connections === 0) this.end();
    }, IDLE_MS);
  }
}

/** One connection: its request read to its end (at most REQUEST_MAX_BYTES), then answered in one line. */
function serveConnection(socket: Socket, nodes: HostNodes, life: Lifetime): void {
  life.opened();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('error', () => undefined);
  socket.on('data', (chunk: string) => {
    text += chunk;
    if (text.length > REQUEST_MAX_BYTES) socket.destroy();
  });
  socket.on('end', () => {
    const request = readRequest(text);
    void ('op' in request ? nodes.handle(request) : Promise.resolve(request))
      .catch((e: Error): HostAnswer => ({ ok: false, code: 'RUNTIME', message: e.message }))
      .then((answer) => socket.end(`${JSON.stringify(answer)}\n`));
  });
  socket.on('close', () => life.closed());
}

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
  const nodes: HostNodes = new HostNodes(log, () => life.checkIdle());
  const life = new Lifetime(nodes);

  // Half-open: the answer is written after the request has ended (the client ends its side first).
  const server = createServer({ allowHalfOpen: true }, (socket) => serveConnection(socket, nodes, life));
  if (!(await listenOn(server, path))) return false;
  await writeFile(hostPidFile(layout), `${process.pid}\n`);
  log(`host of ${layout.home} listening on ${path}`);
  stop.addEventListener('abort', life.end, { once: true });
  life.checkIdle();
  await life.over;

  await nodes.close();
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
