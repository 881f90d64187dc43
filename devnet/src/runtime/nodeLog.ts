/**
 * A node's log as text, through its runtime (the process and threads runtimes' log files, the
 * engine's container or service logs, with the lines of runs an upgrade replaced), and the line
 * in it that says why the node stopped.
 */
import { Writable } from 'node:stream';
import type { Runtime } from './runtime.js';

/** A node's log so far: its last `tail` lines, or all of it. */
export async function readLog(runtime: Runtime, name: string, tail: number | null = null): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await runtime.node(name).logs({ follow: false, tail }, sink);
  return Buffer.concat(chunks).toString('utf8');
}

/** How many of a stopped node's last lines are searched for why it stopped. */
const LAST_WORDS_LINES = 50;

/**
 * Why a node that exited by itself did (chain-node's one line for a failure to start, `chain-node:
 * …`, e.g. the protocol versions of a store it refuses), else its last line; null when its log
 * is empty or cannot be read.
 */
export async function lastWords(runtime: Runtime, name: string): Promise<string | null> {
  const text = await readLog(runtime, name, LAST_WORDS_LINES).catch(() => '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.findLast((l) => l.startsWith('chain-node: ')) ?? lines.at(-1) ?? null;
}

/** Why a node that was started has ended by itself (its exit code and last words), or null while it runs or may. */
export async function whyEnded(runtime: Runtime, name: string): Promise<string | null> {
  const handle = runtime.node(name);
  const state = await handle.state();
  if (state !== 'stopped' && state !== 'absent') return null;
  const code = await handle.exitCode();
  if (code === null) return null;
  const words = await lastWords(runtime, name);
  return `chain-node exited with code ${code}${words === null ? '' : `: ${words}`}`;
}
