/**
 * How the threads runtime's commands talk to its host (host.ts): one JSON request a connection on
 * a Unix socket in the devnet's home (threads/host.sock; only who may enter the home may reach
 * it), one JSON answer, then the host closes it. The host's pid and log are beside the socket.
 * The wire is the host's and this file's alone: both are of one build, started by one devnet.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { DevnetError, type DevnetErrorCode } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';

export const hostDir = (layout: Layout) => join(layout.home, 'threads');
export const hostSocket = (layout: Layout) => join(hostDir(layout), 'host.sock');
export const hostPidFile = (layout: Layout) => join(hostDir(layout), 'host.pid');
export const hostLogFile = (layout: Layout) => join(hostDir(layout), 'host.log');
/** On the host's command line: what ties a pid to this devnet's host. */
export const hostMarker = (layout: Layout) => `host --home ${layout.home}`;

/** A Unix socket's path is at most 107 bytes on Linux (sun_path). */
const SOCKET_PATH_MAX = 107;

export type ThreadState = 'running' | 'paused' | 'stopped';

/** What a node thread runs: its program (a chain-node build's entry) with its arguments. */
export interface StartRequest {
  readonly op: 'start';
  readonly name: string;
  readonly program: string;
  readonly args: readonly string[];
  readonly logFile: string;
  readonly exitFile: string;
}

export type HostRequest =
  | StartRequest
  | { readonly op: 'stop' | 'kill' | 'pause' | 'resume' | 'state'; readonly name: string };

export type HostAnswer =
  | { readonly ok: true; readonly state: ThreadState }
  | { readonly ok: false; readonly code: DevnetErrorCode | 'CLOSING'; readonly message: string };

/** The answer to a request that could not be read. */
export function badRequest(message: string): HostAnswer {
  return { ok: false, code: 'RUNTIME', message };
}

/** The socket's path, refused (with what to do) where a Unix socket cannot have it. */
export function socketPathOf(layout: Layout): string {
  const path = hostSocket(layout);
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX)
    throw new DevnetError(
      'BAD_FLAG',
      `the threads runtime's control socket ${path} is ${Buffer.byteLength(path)} bytes long, over the ${SOCKET_PATH_MAX} a Unix socket allows: use a shorter --home`,
    );
  return path;
}

/** Why the host did not answer: nobody listens (no host), or it said it is closing. */
export class NoHost extends Error {}

/**
 * Sends one request and reads the answer. NoHost when no host listens (or it is going away, with
 * nothing left to run); a DevnetError with the host's code when it refuses the request.
 */
export function ask(layout: Layout, request: HostRequest, timeoutMs = 30_000): Promise<ThreadState> {
  const path = socketPathOf(layout);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new DevnetError(
          'RUNTIME',
          `the threads host of ${layout.home} did not answer ${request.op} ${request.name} within ${timeoutMs / 1000} s`,
        ),
      );
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.end(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' || e.code === 'ECONNREFUSED' ? new NoHost(e.message) : e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (text === '') return reject(new NoHost('the host closed the connection without an answer'));
      const answer = readAnswer(text);
      if (answer === null)
        return reject(new DevnetError('RUNTIME', `${path} answered something that is no host's answer`));
      if (answer.ok) resolve(answer.state);
      else if (answer.code === 'CLOSING') reject(new NoHost(answer.message));
      else reject(new DevnetError(answer.code, answer.message));
    });
  });
}

/** The host's answer, or null for anything else (what listens there may be no host of ours). */
function readAnswer(text: string): HostAnswer | null {
  try {
    const a = JSON.parse(text) as Partial<{ ok: unknown; state: unknown; code: unknown; message: unknown }>;
    if (a.ok === true && typeof a.state === 'string') return a as HostAnswer;
    if (a.ok === false && typeof a.code === 'string' && typeof a.message === 'string') return a as HostAnswer;
    return null;
  } catch {
    return null;
  }
}
