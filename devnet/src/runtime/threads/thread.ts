/**
 * One node run as a worker thread of the host: started, stopped (its SIGTERM, then ended at once
 * after the grace a process gets), killed, paused and resumed. Its output goes to the node's log
 * file, as a process runtime node's does; how it ended goes to its exit file once it has ended
 * and its log is written, for a later command to read (readExitStatus), as the process runtime's
 * waiter writes it.
 */
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { THREAD_YOUNG_GENERATION_MB } from '@chain-devnet/node/harness';
import type { StartRequest, ThreadState } from './control.js';
import { KILLED_STATUS, THREAD_PRELUDE, type ThreadData } from './nodeThread.js';

/** As the process runtime's stop: SIGTERM, then the end at once after this long. */
const STOP_GRACE_MS = 10_000;
/** How long a thread may take to block itself after 'pause' (a busy one reads it when it is next idle). */
const PAUSE_BOUND_MS = 5_000;

export class NodeThread {
  private readonly worker: Worker;
  private readonly pauseWord = new Int32Array(new SharedArrayBuffer(4));
  private paused = false;
  /** The status reported when the host ended the thread itself (kill, crash, a stop past its grace). */
  private endedWith: number | null = null;
  /** Resolves with the exit status once the thread has ended and its log and exit file are written. */
  readonly ended: Promise<number>;
  private pausedAck: (() => void) | null = null;

  constructor(readonly start: StartRequest) {
    mkdirSync(dirname(start.logFile), { recursive: true });
    mkdirSync(dirname(start.exitFile), { recursive: true });
    rmSync(start.exitFile, { force: true });
    const log = createWriteStream(start.logFile, { flags: 'a' });
    const data: ThreadData = {
      program: start.program,
      pauseWord: this.pauseWord.buffer as SharedArrayBuffer,
    };
    this.worker = new Worker(THREAD_PRELUDE, {
      eval: true,
      argv: [...start.args],
      workerData: data,
      stdout: true,
      stderr: true,
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    });
    this.worker.stdout.pipe(log, { end: false });
    this.worker.stderr.pipe(log, { end: false });
    this.worker.on('message', (m) => {
      if (m === 'paused') this.pausedAck?.();
      // A fail point's SIGKILL to itself: ended at once, as the process would have been.
      if (m === 'crash') void this.end();
    });
    // An exception nothing caught ends the thread (code 1), as it ends a process; its stack to the log.
    this.worker.on('error', (e) => log.write(`${e.stack ?? String(e)}\n`));
    this.ended = new Promise<number>((resolve) => {
      this.worker.once('exit', (code) => {
        const status = this.endedWith ?? code;
        // The output still in the pipes first, then the status: a reader that sees the status sees the whole log.
        void Promise.all([finished(this.worker.stdout), finished(this.worker.stderr)])
          .catch(() => undefined)
          .then(() => {
            log.end();
            return finished(log).catch(() => undefined);
          })
          .then(() => {
            writeFileSync(start.exitFile, `${status}\n`);
            resolve(status);
          });
      });
    });
  }

  /** Resolves once the thread runs (its prelude is about to load the program). */
  online(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.worker.once('online', resolve);
      this.ended.then(() => reject(new Error(`${this.start.name} ended as it started`)), reject);
    });
  }

  state(): ThreadState {
    return this.paused ? 'paused' : 'running';
  }

  /** SIGTERM (after resuming a paused thread, so that it can act on it), then the end at once after the grace. */
  async stop(): Promise<number> {
    this.resume();
    this.worker.postMessage('SIGTERM');
    const timer = setTimeout(() => void this.end(), STOP_GRACE_MS);
    try {
      return await this.ended;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ended at once: no more of its JavaScript runs (a blocked, paused thread too). */
  end(): Promise<number> {
    this.endedWith ??= KILLED_STATUS;
    void this.worker.terminate();
    return this.ended;
  }

  async pause(): Promise<void> {
    if (this.paused) return;
    Atomics.store(this.pauseWord, 0, 1);
    const acked = new Promise<void>((resolve) => {
      this.pausedAck = resolve;
    });
    this.worker.postMessage('pause');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), PAUSE_BOUND_MS);
    });
    const r = await Promise.race([acked, late, this.ended]);
    clearTimeout(timer);
    this.pausedAck = null;
    if (typeof r === 'number') throw new Error(`${this.start.name} exited: cannot pause it`);
    if (r === 'late') {
      this.resume();
      throw new Error(`${this.start.name} did not pause within ${PAUSE_BOUND_MS / 1000} s`);
    }
    this.paused = true;
  }

  resume(): void {
    Atomics.store(this.pauseWord, 0, 0);
    Atomics.notify(this.pauseWord, 0);
    this.paused = false;
  }
}
