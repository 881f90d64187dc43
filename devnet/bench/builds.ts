/**
 * Builds of this repository side by side in one benchmark run (bench:memory, bench:up,
 * bench:scale): `--builds DIR,DIR` names checkouts' roots, each built (npm run build); each
 * build's own bundled CLI runs and starts its own nodes, the builds alternating round by round,
 * so that main and a branch are measured on the same machine in the same hour. Also what a
 * process-runtime devnet's processes have used of the CPU, from /proc.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { devnetCli } from '../src/harness/cli.js';

/** `--builds a,b` as absolute roots ('.' is this checkout). */
export function buildsOf(list: string): string[] {
  return list.split(',').map((b) => resolve(b));
}

/** A build's name in a table: its folder's name. */
export function buildLabel(build: string): string {
  return basename(build);
}

/** Set once the bench is stopped (cleanUpOnStop): no further `devnet` command starts, but the cleanup's. */
let stopping = false;

/**
 * `devnet ARGS…` of a build's CLI; fails with its output on a non-zero exit. Once the bench is
 * stopped it never settles (the measuring goes no further while the cleanup runs), unless
 * `duringStop` (the cleanup's own commands).
 */
export async function devnetOf(
  build: string,
  args: string[],
  timeoutMs = 600_000,
  duringStop = false,
): Promise<string> {
  if (stopping && !duringStop) return new Promise<never>(() => {});
  const r = await devnetCli(args, { build, timeoutMs });
  if (stopping && !duringStop) return new Promise<never>(() => {});
  if (r.code !== 0) throw new Error(`devnet ${args.join(' ')} (${build}): ${r.stdout}${r.stderr}`);
  return r.stdout;
}

const TICKS = 100; // USER_HZ on Linux

/** A process's CPU time so far (user + system) in seconds, from /proc; null when it is gone. */
async function cpuOfPid(pidFile: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(pidFile, 'utf8'), 10);
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/**
 * The CPU seconds used so far by each node of a devnet on this machine and by its panel: a
 * process-runtime node's own (run/<node>.pid); on the threads runtime the host's (threads/
 * host.pid), shared evenly among the nodes (a thread's own CPU is not in /proc by name).
 */
export async function devnetCpu(home: string): Promise<{ nodes: number[]; panel: number | null }> {
  const panel = await cpuOfPid(join(home, 'ui', 'panel.pid'));
  const host = await cpuOfPid(join(home, 'threads', 'host.pid'));
  if (host !== null) {
    const n = (await readdir(join(home, 'nodes')).catch(() => [] as string[])).length;
    return { nodes: Array.from({ length: n }, () => host / n), panel };
  }
  const pids = (await readdir(join(home, 'run')).catch(() => [] as string[])).filter((f) =>
    /^validator-\d+\.pid$/.test(f),
  );
  const nodes = (await Promise.all(pids.map((f) => cpuOfPid(join(home, 'run', f))))).filter(
    (x): x is number => x !== null,
  );
  return { nodes, panel };
}

/**
 * On SIGINT or SIGTERM, `cleanup()` (a devnet's `down` with `devnetOf(…, duringStop)`, taking a
 * swarm apart, removing the bench's folder) runs before the bench exits (130, 143), and the
 * measuring stops where it is (devnetOf). The spawner's own handler runs after this one and kills
 * the programs it had started (an `up` half-way), so the cleanup starts on the next turn, after
 * it; a listener that stays (`on`, not `once`) tells that handler not to raise the signal again,
 * which would end the bench first.
 */
export function cleanUpOnStop(cleanup: () => Promise<unknown> | unknown): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      setImmediate(
        () =>
          void Promise.resolve()
            .then(cleanup)
            .finally(() => process.exit(code)),
      );
    });
}
