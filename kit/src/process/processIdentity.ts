/**
 * Whether a process recorded earlier still runs: its pid, and (on Linux) its start time, so that
 * a pid the kernel has since given to another process is not taken for it. Used by the lock
 * between processes (fileLock.ts), the port registry (ports.ts) and the devnet's registry of test
 * runs (devnet/src/testkit/registry.ts).
 */
import { readFile } from 'node:fs/promises';

/** Whether process `pid` exists (another user's, which refuses the signal, counts). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time, field 22 of /proc/<pid>/stat (clock ticks since boot); null off Linux or when it is gone. */
export async function processStart(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process with `pid` that started at `start` still runs (a start unknown then or now: the pid alone). */
export async function stillRunning(pid: number, start: string | null): Promise<boolean> {
  if (!pidAlive(pid)) return false;
  const now = await processStart(pid);
  return start === null || now === null || now === start;
}
