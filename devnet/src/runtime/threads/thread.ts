/**
 * One node run as a worker thread of the host: started, stopped (its SIGTERM, then ended at once
 * after the grace a process gets), killed, paused and resumed. Its output goes to the node's log
 * file, as a process runtime node's does; how it ended goes to its exit file once it has ended
 * and its log is written, for a later command to read (readExitStatus), as the process runtime's
 * waiter writes it.
 *
 * Whatever goes wrong with one thread's files stays with that thread: its log file is opened and
 * its exit file made (and removed) before the thread starts, so a start that cannot have them is
 * refused (ThreadFilesError) with nothing started; a write that fails later (the disk full, the
 * folder gone) is said through `report`, never thrown. The host is every node's process: an error
 * event nobody listened to, or a promise nobody caught, ended it and so every node (issue 39).
 */

import type { WriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { THREAD_YOUNG_GENERATION_MB } from '@chain-devnet/node/builds';
import type { StartRequest, ThreadState } from './control.js';
import { KILLED_STATUS, THREAD_PRELUDE, type ThreadData } from './nodeThread.js';

/** As the process runtime's stop: SIGTERM, then the end at once after this long. */
const STOP_GRACE_MS = 10_000;
/** How long a thread may take to block itself after 'pause' (a busy one reads it when it is next idle). */
const PAUSE_BOUND_MS = 5_000;

/** A start refused because the node's log or exit file cannot be had; nothing was started. */
export class ThreadFilesError extends Error {
  override readonly name = 'ThreadFilesError';
}

/** `work` on `file`, its failure a ThreadFilesError saying which file of which node. */
async function forFile<T>(
  start: StartRequest,
  what: string,
  file: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw new ThreadFilesError(`${start.name}: its ${what} ${file} cannot be made: ${(e as Error).message}`);
  }
}

export class NodeThread {
  private readonly worker: Worker;
  private readonly pauseWord = new Int32Array(new SharedArrayBuffer(4));
  private paused = false;
  /** The status reported when the host ended the thread itself (kill, crash, a stop past its grace). */
  private endedWith: number | null = null;
  /** Resolves (never rejects) with the exit status once the thread has ended and its log and exit file are written. */
  readonly ended: Promise<number>;
  private pausedAck: (() => void) | null = null;

  /**
   * The node's thread, started once its files are had: the log file opened (appended to), the exit
   * file made and removed (it appears when the thread has ended). A ThreadFilesError otherwise.
   */
  static async create(start: StartRequest, report: (line: string) => void): Promise<NodeThread> {
    await forFile(start, 'exit file', start.exitFile, async () => {
      await mkdir(dirname(start.exitFile), { recursive: true });
      await rm(start.exitFile, { force: true });
      await (await open(start.exitFile, 'wx')).close();
      await rm(start.exitFile);
    });
    const log = await forFile(start, 'log file', start.logFile, async () => {
      await mkdir(dirname(start.logFile), { recursive: true });
      return open(start.logFile, 'a');
    });
    try {
      return new NodeThread(start, log, report);
    } catch (e) {
      await log.close();
      throw e;
    }
  }

  private constructor(
    readonly start: StartRequest,
    logFile: FileHandle,
    report: (line: string) => void,
  ) {
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
    const log: WriteStream = logFile.createWriteStream();
    let logFailed = false;
    log.on('error', (e) => {
      if (!logFailed) report(`${start.name}: its log file ${start.logFile} failed: ${e.message}`);
      logFailed = true;
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
        void (async () => {
          await Promise.all([finished(this.worker.stdout), finished(this.worker.stderr)]).catch(
            () => undefined,
          );
          log.end();
          await finished(log).catch(() => undefined);
          try {
            await writeFile(start.exitFile, `${status}\n`);
          } catch (e) {
            report(
              `${start.name}: ended with ${status}, but its exit file cannot be written: ${(e as Error).message}`,
            );
          }
          resolve(status);
        })();
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
