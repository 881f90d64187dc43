/**
 * One detached program as the commands that come after see it, by its files (detached.ts): its
 * pid file, checked against a marker on its command line (a pid alone may have been reused); its
 * log; and, when it runs under an exit waiter, its exit file. Started unless it runs, stopped
 * (SIGTERM, then SIGKILL after a grace) and, under a waiter, returned from only once the waiter
 * has written how it ended, so reaped: a stopped program is gone from the process table when
 * `stop` returns. The devnet's panel, its supervisor and the threads runtime's host are each one.
 */

import { waitForOrNull } from '../wait/wait.js';
import { procState, readExitStatus, readPid, removePidFile, spawnDetached, stopProcess } from './detached.js';

export interface DetachedProgramSpec {
  /** What it is, for `down`'s list ("panel", "threads host"). */
  readonly what: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly pidFile: string;
  readonly logFile: string;
  /** Under an exit waiter: where its exit status goes (detached.ts). */
  readonly exitFile?: string;
  /** On its command line: what ties a pid to this program. */
  readonly marker: string;
  /** How long it has after SIGTERM (default: stopProcess's). */
  readonly graceMs?: number;
}

/** How long `stop` waits for the waiter's exit file: a program started without one writes none. */
const REAPED_WAIT_MS = 2_000;

export class DetachedProgram {
  constructor(readonly spec: DetachedProgramSpec) {}

  /** Its pid while it runs, else null. */
  async pid(): Promise<number | null> {
    const pid = await readPid(this.spec.pidFile);
    if (pid === null) return null;
    return (await procState(pid, this.spec.marker)) === 'absent' ? null : pid;
  }

  /** Starts it unless it runs; its pid. */
  async start(): Promise<number> {
    const running = await this.pid();
    if (running !== null) return running;
    const s = this.spec;
    return spawnDetached({
      command: s.command,
      args: s.args,
      logFile: s.logFile,
      pidFile: s.pidFile,
      ...(s.env === undefined ? {} : { env: s.env }),
      ...(s.exitFile === undefined ? {} : { exitFile: s.exitFile }),
    });
  }

  /** Stops it if it runs (reaped, under a waiter); what was stopped, for `devnet down`'s list. */
  async stop(): Promise<string[]> {
    const s = this.spec;
    const pid = await this.pid();
    if (pid !== null) {
      await stopProcess(pid, s.marker, ...(s.graceMs === undefined ? [] : [s.graceMs]));
      const exitFile = s.exitFile;
      if (exitFile !== undefined)
        await waitForOrNull(`the ${s.what} to be reaped`, REAPED_WAIT_MS, () => readExitStatus(exitFile), {
          pollMs: 10,
        });
    }
    await removePidFile(s.pidFile);
    return pid === null ? [] : [`process ${s.what} (pid ${pid})`];
  }
}
