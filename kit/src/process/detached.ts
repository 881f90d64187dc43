/**
 * The spawner's detached mode: programs that outlive the command that started them (the devnet's
 * process runtime starts its nodes and monitors so). Each writes its output to a log file and
 * its id to a pid file; a later command finds it again by that file. A pid alone could be reused
 * by an unrelated process after a crash, so "alive" also requires the process's command line to
 * hold a marker (the node's home folder), read from /proc.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { waitForOrNull } from '../wait/wait.js';

export interface DetachedSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly logFile: string;
  readonly pidFile: string;
  /**
   * Where the program's exit status goes when it ends (its code, or 128 + the signal that ended
   * it), for a later command to read (readExitStatus): a detached program is no child of the
   * commands that look at it, so nothing else can learn how it ended. A small shell waits for it
   * and writes the file; the pid file holds the program's own id (signals go to it, not to the
   * shell).
   */
  readonly exitFile?: string;
}

/** The shell that runs "$@" and writes its pid, then its exit status ($1 pid file, $2 exit file). */
const EXIT_WAITER = 'p="$1"; x="$2"; shift 2; "$@" & echo $! > "$p"; wait $!; echo $? > "$x"';

export async function spawnDetached(s: DetachedSpec): Promise<number> {
  await mkdir(dirname(s.logFile), { recursive: true });
  await mkdir(dirname(s.pidFile), { recursive: true });
  if (s.exitFile !== undefined) {
    await mkdir(dirname(s.exitFile), { recursive: true });
    await rm(s.exitFile, { force: true });
    await rm(s.pidFile, { force: true });
  }
  const fd = openSync(s.logFile, 'a');
  try {
    const [command, args] =
      s.exitFile === undefined
        ? [s.command, [...s.args]]
        : ['/bin/sh', ['-c', EXIT_WAITER, 'sh', s.pidFile, s.exitFile, s.command, ...s.args]];
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: s.env ?? process.env,
      ...(s.cwd === undefined ? {} : { cwd: s.cwd }),
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => resolve(child.pid!));
    });
    child.unref();
    if (s.exitFile === undefined) {
      await writeFile(s.pidFile, `${pid}\n`);
      return pid;
    }
    // The shell writes the program's id as it starts it.
    const program = await waitForOrNull(`${s.pidFile} to be written`, 10_000, () => readPid(s.pidFile), {
      pollMs: 5,
    });
    if (program === null) throw new Error(`${s.command} did not start: ${s.pidFile} was never written`);
    return program;
  } finally {
    closeSync(fd);
  }
}

export async function readPid(pidFile: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(pidFile, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export type ProcState = 'running' | 'stopped' | 'absent';

/** A process's command line and its state letter (R, S, T, Z…), from /proc; null when it is gone. */
async function readProc(pid: number): Promise<{ cmdline: string; state: string } | null> {
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state is the field after the parenthesised command name, which may hold spaces.
    return { cmdline, state: stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) };
  } catch {
    return null;
  }
}

/** 'stopped' is SIGSTOP (paused); 'absent' is gone, a zombie, or a pid now used by something else. */
export async function procState(pid: number, marker: string): Promise<ProcState> {
  const p = await readProc(pid);
  if (p === null || !p.cmdline.includes(marker) || p.state === 'Z' || p.state === 'X') return 'absent';
  return p.state === 'T' || p.state === 't' ? 'stopped' : 'running';
}

/** Live processes whose command line mentions `marker` (a devnet home), other than this one: `pid: cmdline`. */
export async function processesMentioning(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const p = await readProc(Number(entry));
    if (p?.cmdline.includes(marker) && p.state !== 'Z') found.push(`${entry}: ${p.cmdline}`);
  }
  return found;
}

/** Sends `sig` to `pid` (a negative pid: its process group); a process already gone is no error. */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/** Waits until the process is gone; false when it is still there after `timeoutMs`. */
export async function waitGone(pid: number, marker: string, timeoutMs: number): Promise<boolean> {
  const gone = await waitForOrNull(
    `process ${pid} to exit`,
    timeoutMs,
    async () => (await procState(pid, marker)) === 'absent',
    { pollMs: 50 },
  );
  return gone !== null;
}

/** SIGTERM (after SIGCONT, so a paused process can act on it), then SIGKILL after the grace period. */
export async function stopProcess(pid: number, marker: string, graceMs = 10_000): Promise<void> {
  if ((await procState(pid, marker)) === 'absent') return;
  signal(pid, 'SIGCONT');
  signal(pid, 'SIGTERM');
  if (await waitGone(pid, marker, graceMs)) return;
  signal(pid, 'SIGKILL');
  await waitGone(pid, marker, 5_000);
}

/** The exit status of a program started with an exit file; null while it runs (or it never wrote one). */
export async function readExitStatus(exitFile: string): Promise<number | null> {
  const text = await readFile(exitFile, 'utf8').catch(() => null);
  const n = text === null ? Number.NaN : Number.parseInt(text, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

export async function removePidFile(pidFile: string): Promise<void> {
  await rm(pidFile, { force: true });
}
