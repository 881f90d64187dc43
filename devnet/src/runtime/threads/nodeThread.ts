/**
 * What runs first in a node's thread, before its chain-node program: the few things a process
 * has and a thread has not, given by the host's messages.
 *
 * - Signals: a thread receives none. The host's 'SIGTERM' is emitted on `process` as the signal
 *   would be, so the program's own handler stops the node (chain-node's untilSignal); a program
 *   with no handler yet (still starting) ends as a process would, with 128 + 15.
 * - SIGSTOP: 'pause' blocks the thread in Atomics.wait on a word the host shares with it, until
 *   the host clears the word (resume): no JavaScript of the node runs, its sockets are left
 *   unread, as a stopped process's. Its answer 'paused' says it is blocked.
 * - A crash: chain-node's test-only fail points SIGKILL their own process (node/src/faults/
 *   kill.ts), which here would take every node with it. Such a call says 'crash' and blocks for
 *   good; the host ends the thread at once, and no more of its JavaScript runs.
 *
 * It is JavaScript in a string (the Worker's `eval`), so that the devnet bundle needs no file
 * of its own for it.
 */
export const THREAD_PRELUDE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const pauseWord = new Int32Array(workerData.pauseWord);
parentPort.on('message', (m) => {
  if (m === 'SIGTERM') {
    if (process.listenerCount('SIGTERM') === 0) process.exit(143);
    process.emit('SIGTERM', 'SIGTERM');
  } else if (m === 'pause') {
    parentPort.postMessage('paused');
    Atomics.wait(pauseWord, 0, 1);
  }
});
parentPort.unref();
const kill = process.kill.bind(process);
process.kill = (pid, sig) => {
  if (pid === process.pid && (sig === 'SIGKILL' || sig === 9)) {
    parentPort.postMessage('crash');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  return kill(pid, sig);
};
import(pathToFileURL(workerData.program).href).catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\\n');
  process.exit(1);
});
`;

/** What the host gives the prelude. */
export interface ThreadData {
  readonly program: string;
  /** 0: run; 1: stay blocked (paused). */
  readonly pauseWord: SharedArrayBuffer;
}

/** The exit status of a thread the host ended at once (kill, a crash, a stop past its grace): SIGKILL's. */
export const KILLED_STATUS = 128 + 9;
