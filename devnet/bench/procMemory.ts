/**
 * A process's memory from /proc (Linux), for the benchmarks that measure a node's memory.
 *
 * VmRSS counts every resident page the process maps, the pages of the Node binary and of the
 * shared libraries too: the same physical pages in every node of a devnet (48 MiB of a node's
 * ~100 MiB at 21 and 50 validators). Pss (proportional set size) divides each shared page among
 * the processes that map it: the memory a node costs the machine, the sum over the nodes being
 * what they take together. Both are given.
 */
import { readFile } from 'node:fs/promises';

export interface ProcMemory {
  /** VmRSS, MiB. */
  readonly rss: number;
  /** RssAnon: heap and malloc, the process's own (MiB). */
  readonly anon: number;
  /** RssFile: mapped files, mostly the Node binary's pages (MiB). */
  readonly file: number;
  /** Pss from smaps_rollup: shared pages divided among the processes mapping them (MiB). */
  readonly pss: number;
}

/** A `Name:   N kB` field of a /proc file, in MiB (NaN when absent). */
function field(text: string, name: string): number {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  return m === null ? Number.NaN : Number(m[1]) / 1024;
}

export async function procMemory(pid: number): Promise<ProcMemory> {
  const [status, rollup] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => ''),
  ]);
  return {
    rss: field(status, 'VmRSS'),
    anon: field(status, 'RssAnon'),
    file: field(status, 'RssFile'),
    pss: field(rollup, 'Pss'),
  };
}

/** The pid a devnet home's process runtime wrote for `name` (<home>/run/<name>.pid). */
export async function pidOf(pidFile: string): Promise<number> {
  return Number.parseInt(await readFile(pidFile, 'utf8'), 10);
}
