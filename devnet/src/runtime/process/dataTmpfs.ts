/**
 * The process and threads runtimes' data disks (dataDisk.ts): a node's <home>/data on a tmpfs of
 * the size its spec gives, mounted on this machine before the node starts (as root only: without
 * root the node's data stays where it is and its full disk is the node's layer), its data moved
 * onto it when it had some. A mount stays across restarts and upgrades (the node's data with it);
 * `devnet down` unmounts every mount under the devnet's home, and so does the clean-up of a killed
 * run (the testkit's reaper goes through the same teardown), found in the system's mount table,
 * not in any state of the devnet's; with --keep-data the data is moved back onto the disk first.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { DATA_DIR, type DiskBackend, FILLER_FILE, type FillOp, fillArgs, filledOf } from '../dataDisk.js';

const run = promisify(execFile);

/** Whether this machine lets the devnet mount (root). */
export function canMount(): boolean {
  return process.getuid?.() === 0;
}

/** /proc/self/mountinfo's mount points (its octal escapes undone) with their filesystem type. */
async function mounts(): Promise<{ point: string; type: string }[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const unescaped = (s: string) =>
    s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [before, after = ''] = l.split(' - ');
      return { point: unescaped(before!.split(' ')[4] ?? ''), type: after.split(' ')[0] ?? '' };
    });
}

/** Whether `home`'s data folder is a tmpfs mount. */
export async function dataOnTmpfs(home: string): Promise<boolean> {
  const dir = join(home, DATA_DIR);
  return (await mounts()).some((m) => m.point === dir && m.type === 'tmpfs');
}

/**
 * Puts `home`'s data folder on a tmpfs of `bytes` (as root; true once it is there), the data it
 * had moved onto it; false without root (nothing changes).
 */
export async function mountDataTmpfs(home: string, bytes: number): Promise<boolean> {
  if (await dataOnTmpfs(home)) return true;
  if (!canMount()) return false;
  const dir = join(home, DATA_DIR);
  const aside = join(home, `${DATA_DIR}.moving`);
  const had = (await readdir(dir).catch(() => [])).length > 0;
  if (had) await rename(dir, aside);
  await mkdir(dir, { recursive: true });
  await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  if (had) {
    await cp(aside, dir, { recursive: true });
    await rm(aside, { recursive: true, force: true });
  }
  return true;
}

/** Unmounts `dir`; lazily when it is still busy, so that no mount is ever left behind. */
async function unmount(dir: string): Promise<void> {
  await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
}

/**
 * Every mount under `home` taken away, deepest first; with `keepData` the contents of each (but
 * a filler) put back on the disk beneath. Returns what it unmounted, for people.
 */
export async function unmountUnder(home: string, keepData: boolean): Promise<string[]> {
  const under = (await mounts())
    .map((m) => m.point)
    .filter((p) => p.startsWith(home + sep))
    .sort((a, b) => b.length - a.length);
  const removed: string[] = [];
  for (const dir of under) {
    const kept = `${dir}.kept`;
    if (keepData) await cp(dir, kept, { recursive: true, filter: (f) => !f.endsWith(sep + FILLER_FILE) });
    await unmount(dir);
    if (keepData) {
      await rm(dir, { recursive: true, force: true });
      await rename(kept, dir);
    }
    removed.push(`tmpfs ${dir}`);
  }
  return removed;
}

/** A node's backend here: `tmpfs` once its data folder is mounted so, else `layer`. */
export async function backendHere(home: string): Promise<DiskBackend> {
  return (await dataOnTmpfs(home)) ? 'tmpfs' : 'layer';
}

/** The filler program (dataDisk.ts) on `home`'s data folder, by this machine's node: whether it is filled now. */
export async function fillHere(home: string, op: FillOp): Promise<boolean> {
  if (!(await dataOnTmpfs(home))) return false;
  const { stdout } = await run(process.execPath, fillArgs(join(home, DATA_DIR), op));
  return filledOf(stdout);
}
