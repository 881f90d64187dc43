/**
 * A lock between the processes of this machine: a file made with O_EXCL holding its holder's
 * pid; a lock whose process is gone (killed part-way) is taken over. Used so that one commit is
 * built once while devnets that need it wait (gitBuild.ts), and so that two processes drawing
 * ports at once do not both take a range (ports.ts).
 */
import { open, readFile, rm } from 'node:fs/promises';
import { waitFor } from '../wait/wait.js';
import { pidAlive } from './processIdentity.js';

async function tryTake(lock: string): Promise<boolean> {
  try {
    const f = await open(lock, 'wx');
    await f.writeFile(`${process.pid}\n`);
    await f.close();
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const holder = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    // Being written (no pid yet): its writer goes on; a pid that is gone: taken over.
    if (Number.isSafeInteger(holder) && holder > 0 && !pidAlive(holder)) await rm(lock, { force: true });
    return false;
  }
}

export interface FileLockOptions {
  /** What the lock keeps, for the error when the wait times out. */
  readonly what: string;
  readonly timeoutMs: number;
  /** How often a waiter tries again. */
  readonly pollMs: number;
  /** Called once when another process holds the lock and this one starts to wait. */
  readonly onWait?: () => void;
}

/** Runs `work` holding `lock`, waiting (up to `timeoutMs`) while another process holds it. */
export async function withFileLock<T>(lock: string, o: FileLockOptions, work: () => Promise<T>): Promise<T> {
  if (!(await tryTake(lock))) {
    o.onWait?.();
    await waitFor(o.what, o.timeoutMs, () => tryTake(lock), { pollMs: o.pollMs });
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
