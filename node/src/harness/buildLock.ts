/**
 * One build of a commit at a time on this machine: devnets started at once (tests in parallel,
 * two terminals) that need the same commit wait for the first to build it, then use its build.
 * The lock is a file made with O_EXCL holding the builder's pid; a lock whose process is gone
 * (a build killed part-way) is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { waitFor } from './wait.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
    if (Number.isSafeInteger(holder) && holder > 0 && !alive(holder)) await rm(lock, { force: true });
    return false;
  }
}

/** Runs `work` holding `lock`, waiting (up to `timeoutMs`) while another process holds it. */
export async function withBuildLock<T>(
  lock: string,
  timeoutMs: number,
  onWait: () => void,
  work: () => Promise<T>,
): Promise<T> {
  if (!(await tryTake(lock))) {
    onWait();
    await waitFor(
      `the build lock ${lock} (another devnet builds this commit)`,
      timeoutMs,
      () => tryTake(lock),
      {
        pollMs: 250,
      },
    );
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
