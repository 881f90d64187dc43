/**
 * The one process spawner for programs a test, benchmark or tool starts (a node, a CLI, a
 * helper server) and must not leave behind. Each runs in its own process group; its output
 * (stdout and stderr, line by line) is kept in memory (the last lines, for readiness and for the
 * message of a failed wait) and, when asked, appended to a file; `stop` ends it and its group
 * (SIGTERM, then SIGKILL after a grace period). Every program still running is killed with its
 * group by stopAllPrograms(), when this process exits, and when it is told to stop (SIGINT,
 * SIGTERM: a test runner's timeout), which would otherwise leave nodes running with nobody to
 * stop them. Programs that must outlive this process are the detached mode (detached.ts).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, createWriteStream, type WriteStream } from 'node:fs';
import { constants as os } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { waitFor } from '../wait/wait.js';
import { signal } from './detached.js';

export interface ProgramOptions {
  readonly args: readonly string[];
  /** Default: this Node (process.execPath), so that args[0] is a script. */
  readonly command?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** For messages; default: the script's (or the command's) file name. */
  readonly name?: string;
  /** Also append the output to this file. */
  readonly logFile?: string;
  /** Lines of output kept in memory; default 2000. */
  readonly keepLines?: number;
  /** Written to the program's stdin, which is then closed; default: no stdin. */
  readonly input?: string;
  /** Keep the whole of stdout and stderr apart (what runProgram returns). */
  readonly collect?: boolean;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the program could not be started at all (e.g. ENOENT). */
  readonly error?: string;
}

const running = new Set<Program>();

export class Program {
  readonly name: string;
  readonly exited: Promise<Exit>;
  private readonly kept: string[] = [];
  private readonly keep: number;
  private partial = '';
  private ended: Exit | null = null;
  private log: WriteStream | null = null;
  private out = '';
  private err = '';

  constructor(
    readonly child: ChildProcess,
    o: ProgramOptions,
  ) {
    this.name = o.name ?? basename(o.command === undefined ? (o.args[0] ?? 'node') : o.command);
    this.keep = o.keepLines ?? 2000;
    if (o.logFile !== undefined) this.log = createWriteStream(o.logFile, { flags: 'a' });
    for (const [stream, collect] of [
      [child.stdout, (t: string) => (this.out += t)],
      [child.stderr, (t: string) => (this.err += t)],
    ] as const) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        if (o.collect) collect(text);
        this.log?.write(text);
        this.take(text);
      });
    }
    this.exited = new Promise((resolve) => {
      const finish = (exit: Exit) => {
        if (this.ended !== null) return;
        if (this.partial !== '') this.take('\n');
        this.ended = exit;
        running.delete(this);
        const log = this.log;
        if (log === null) resolve(exit);
        else log.end(() => resolve(exit));
      };
      // After 'exit', the output is read to its end ('close'), unless something the program left
      // behind holds its pipes open: then its exit is reported a second later all the same.
      child.once('exit', (code, sig) => {
        const drained = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish({ code, signal: sig });
        }, 1_000);
        child.once('close', () => {
          clearTimeout(drained);
          finish({ code, signal: sig });
        });
      });
      child.once('error', (e) => finish({ code: null, signal: null, error: e.message }));
    });
  }

  private take(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!;
    this.kept.push(...lines);
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How it ended, or null while it runs. */
  get exit(): Exit | null {
    return this.ended;
  }

  get running(): boolean {
    return this.ended === null;
  }

  /** The last lines of its output (stdout and stderr as they came). */
  lines(): readonly string[] {
    return this.kept;
  }

  get stdout(): string {
    return this.out;
  }

  get stderr(): string {
    return this.err;
  }

  /** Whether it runs, how it ended, and the end of its output: for the message of a failed wait. */
  describe(tail = 12): string {
    const e = this.ended;
    const state =
      e === null
        ? `running (pid ${this.pid})`
        : e.error !== undefined
          ? `not started (${e.error})`
          : `exited (code ${e.code}, signal ${e.signal})`;
    return `${this.name}: ${state}; last lines of its output:\n${this.kept.slice(-tail).join('\n')}`;
  }

  /**
   * Readiness by output: the first line matching `pattern` (its match), polled; fails when the
   * program ends first or `timeoutMs` passes, saying which and quoting the end of the output.
   */
  async waitForLine(
    pattern: RegExp,
    timeoutMs: number,
    what = `a line matching ${pattern}`,
  ): Promise<RegExpExecArray> {
    let from = 0;
    const found = await waitFor(
      `${this.name} to print ${what}`,
      timeoutMs,
      async () => {
        for (; from < this.kept.length; from++) {
          const m = pattern.exec(this.kept[from]!);
          if (m !== null) return m;
        }
        from = Math.min(from, this.kept.length);
        return this.ended === null ? null : ('ended' as const);
      },
      { pollMs: 20, seen: () => this.describe() },
    );
    if (found === 'ended')
      throw new Error(`${this.name} ended before it printed ${what}: ${this.describe()}`);
    return found;
  }

  /** Sends `sig` to the program and its process group. */
  signal(sig: NodeJS.Signals): void {
    if (this.ended !== null || this.pid === undefined) return;
    signal(-this.pid, sig);
  }

  /** SIGTERM (or `sig`) to the group, SIGKILL after `graceMs` if it still runs; resolves with how it ended. */
  async stop(sig: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<Exit> {
    if (this.ended !== null) return this.ended;
    this.signal('SIGCONT'); // a paused program cannot act on SIGTERM
    this.signal(sig);
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

let exitHooked = false;

/** Kills every program still running with its group, synchronously: also from an 'exit' handler. */
function killAll(): void {
  for (const p of running) p.signal('SIGKILL');
}

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => {
      killAll();
      // As if this handler were not there: the default action, unless another handler (which
      // ran too) decides.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    });
}

/** Starts a program (see the module comment); it runs until it ends or is stopped. */
export function startProgram(o: ProgramOptions): Program {
  hookExit();
  const child = spawn(o.command ?? process.execPath, [...o.args], {
    detached: true,
    stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env: o.env ?? process.env,
    ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
  });
  if (o.input !== undefined) {
    child.stdin?.on('error', () => undefined); // a program that does not read its input
    child.stdin?.end(o.input);
  }
  const p = new Program(child, o);
  running.add(p);
  return p;
}

/** Stops every program this process started and that still runs. */
export async function stopAllPrograms(graceMs = 3_000): Promise<void> {
  await Promise.all([...running].map((p) => p.stop('SIGTERM', graceMs)));
}

export interface RunResult {
  /** The exit code; 128 + the signal's number when a signal ended it; 1 when it could not start. */
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Runs a program to its end, as a person runs a command: its exit code, stdout and stderr. A
 * program still running after `timeoutMs` is killed with its group (timedOut).
 */
export async function runProgram(o: ProgramOptions & { readonly timeoutMs?: number }): Promise<RunResult> {
  const p = startProgram({ ...o, collect: true, keepLines: o.keepLines ?? 200 });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    p.signal('SIGKILL');
  }, o.timeoutMs ?? 120_000);
  const exit = await p.exited.finally(() => clearTimeout(timer));
  const code = exit.code ?? (exit.signal !== null ? 128 + (os.signals[exit.signal] ?? 0) : 1);
  return {
    code,
    stdout: p.stdout,
    stderr: exit.error === undefined ? p.stderr : `${p.stderr}${exit.error}\n`,
    timedOut,
  };
}

const syncOptions = (o: ProgramOptions & { readonly timeoutMs?: number }) => ({
  timeout: o.timeoutMs ?? 120_000,
  env: o.env ?? process.env,
  ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
});

/**
 * Runs a program to its end synchronously, its output dropped: for a process about to exit (a
 * signal handler taking down what it brought up), where nothing asynchronous runs any more.
 * The exit code (1 when it could not start or was killed).
 */
export function runProgramSync(o: ProgramOptions & { readonly timeoutMs?: number }): number {
  return (
    spawnSync(o.command ?? process.execPath, [...o.args], { stdio: 'ignore', ...syncOptions(o) }).status ?? 1
  );
}

/** runProgramSync, keeping stdout and stderr (for a clean-up that must read what is there). */
export function runProgramSyncResult(o: ProgramOptions & { readonly timeoutMs?: number }): RunResult {
  const r = spawnSync(o.command ?? process.execPath, [...o.args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
    ...syncOptions(o),
  });
  return {
    code: r.status ?? 1,
    stdout: r.stdout ?? '',
    stderr: `${r.stderr ?? ''}${r.error === undefined ? '' : `${r.error.message}\n`}`,
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
  };
}

/** The first of `names` found as an executable on PATH, or null. */
export function findOnPath(...names: string[]): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return null;
}
