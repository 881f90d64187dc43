#!/usr/bin/env node
/**
 * The `devnet` command: the table of commands (program.ts) run on the command line, and errors
 * translated here, once: a usage error names the command and its help; a DevnetError's message
 * says what to do; a node that does not answer, or refuses, is named with its URL; any other
 * error is reported as an internal one, without a stack trace unless DEVNET_DEBUG is set. With --json the error is one object (jsonShapes.ts, ErrorJson).
 */
import { describeUsageError, runCommandLine, UsageError } from '@chain-devnet/kit/cli';
import type { RpcAnswerTooLargeError, RpcError, RpcUnreachableError } from '@chain-devnet/node/client';
import { DevnetError } from '../base/errors.js';
import type { ErrorJson } from '../json/jsonShapes.js';
import { printJson } from './output.js';
import { DEVNET } from './program.js';

/**
 * Whether `e` is the client error named `name`. By name, not instanceof: the client's module is
 * loaded only by the commands that talk to a node, not by every start of this command.
 */
function isError<T extends Error>(e: unknown, name: string): e is T {
  return e instanceof Error && e.name === name;
}

/** The error as `[code, text for people, message for --json]`. */
function translate(e: unknown): [ErrorJson['error']['code'], string, string] {
  if (e instanceof UsageError) {
    const { line, hint } = describeUsageError(e, DEVNET.name);
    return hint === null ? ['BAD_FLAG', line, line] : ['BAD_FLAG', `${line}\n${hint}`, `${line} (${hint})`];
  }
  if (e instanceof DevnetError) return [e.code, `devnet: ${e.message}`, e.message];
  if (isError<RpcUnreachableError>(e, 'RpcUnreachableError')) {
    const message = `${e.message}: is the devnet running? (devnet status shows each node)`;
    return ['UNREACHABLE', `devnet: ${message}`, message];
  }
  if (isError<RpcAnswerTooLargeError>(e, 'RpcAnswerTooLargeError')) {
    const message = `${e.message}: refused unread; is a node of this devnet there?`;
    return ['BAD_ANSWER', `devnet: ${message}`, message];
  }
  if (isError<RpcError>(e, 'RpcError')) {
    const message = `the node refused: HTTP ${e.status} ${e.detail} (${e.url})`;
    return ['NODE_REFUSED', `devnet: ${message}`, message];
  }
  // Dockerode's errors carry the engine's HTTP status.
  if (typeof e === 'object' && e !== null && 'statusCode' in e && typeof e.statusCode === 'number') {
    const message = `the Docker engine refused: ${String('message' in e ? e.message : e).trim()}`;
    return ['RUNTIME', `devnet: ${message}`, message];
  }
  if (process.env.DEVNET_DEBUG) console.error(e);
  const message = `internal error: ${e instanceof Error ? e.message : String(e)}`;
  return ['INTERNAL', `devnet: ${message}`, message];
}

/**
 * Exits once what was printed has left: a pipe whose reader is slow takes a write only in part
 * (EAGAIN), and the rest would be lost at the exit (a seed search's --json report of 220 kB was
 * cut off at 219,264 bytes while other tests ran beside it). A write's callback comes after
 * every earlier write has gone.
 */
const exitWhenFlushed = (code: number) => process.stdout.write('', () => process.exit(code));

runCommandLine(DEVNET, process.argv.slice(2), (text) => process.stdout.write(text)).then(
  // Exit at once after that: the devnet runs on in its own processes or containers, and idle
  // keep-alive sockets to the nodes would otherwise hold this command for seconds.
  (code) => exitWhenFlushed(code),
  (e: unknown) => {
    const [code, text, message] = translate(e);
    if (process.argv.includes('--json')) printJson<ErrorJson>({ error: { code, message } });
    else process.stderr.write(`${text}\n`);
    // Exit 2: the command line or a file is wrong (nothing ran); 1: it ran and failed.
    exitWhenFlushed(code === 'BAD_FLAG' || code === 'BAD_SCENARIO' ? 2 : 1);
  },
);
