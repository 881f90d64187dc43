/**
 * Free ports on 127.0.0.1 for the nodes a test, benchmark or tool starts: the one finder.
 * Bases are drawn so that every port of the plan stays below Linux's ephemeral range
 * (32768-60999): a port found free there can be taken by the local end of an outgoing
 * connection (nodes open many) between the check and the node's bind.
 *
 * A port that is free now is not enough: a devnet whose node is stopped, restarted or upgraded
 * has that node's ports free for a while, and another test drawing then must not get them. So
 * every range drawn is written to a registry shared by the machine's processes (a file in the
 * temp folder, changed under a file lock) with the drawer's pid, and held until that process is
 * gone: a test file, benchmark or tool outlives the devnets it draws for. Nothing is released by
 * hand; the entries of ended processes (a pid gone, or reused: its start time differs) are dropped
 * at the next draw.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../process/fileLock.js';
import { processStart, stillRunning } from '../process/processIdentity.js';

const LOWEST_BASE = 10_000;
const EPHEMERAL_START = 32_768;

/** Whether `port` can be bound on `host` now. */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

export type PortPlan = (base: number) => readonly number[];

/** The bases a plan may be drawn from: every port of the plan from any of them is in 10000-32767. */
export function baseRange(plan: PortPlan): { readonly lowest: number; readonly highest: number } {
  const span = Math.max(0, ...plan(0));
  const highest = EPHEMERAL_START - 1 - span;
  if (highest < LOWEST_BASE)
    throw new RangeError(`a port plan spanning ${span} ports does not fit below ${EPHEMERAL_START}`);
  return { lowest: LOWEST_BASE, highest };
}

/** One process's ranges: held while the process with this pid and start time runs. */
interface Holder {
  readonly pid: number;
  readonly started: string | null;
  readonly ports: number[];
}

const REGISTRY = join(tmpdir(), 'chain-devnet-ports.json');

/** The holders that still run. A registry that cannot be read (none yet, cut short) holds nothing. */
async function readHolders(): Promise<Holder[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(REGISTRY, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const wellFormed = (parsed as Holder[]).filter(
    (h) =>
      Number.isSafeInteger(h?.pid) &&
      (typeof h.started === 'string' || h.started === null) &&
      Array.isArray(h.ports),
  );
  const running = await Promise.all(wellFormed.map((h) => stillRunning(h.pid, h.started)));
  return wellFormed.filter((_h, i) => running[i]);
}

async function writeHolders(holders: readonly Holder[]): Promise<void> {
  const tmp = `${REGISTRY}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(holders));
  await rename(tmp, REGISTRY);
}

/**
 * A base port P such that every port of `plan(P)` is free now and held by no living process
 * (this one included), P drawn at random; its ports are held for this process from now on. The
 * plan is a function of the base, e.g. `(p) => networkPorts(p, 4)`.
 */
export async function freeBasePort(plan: PortPlan, attempts = 50): Promise<number> {
  const { lowest, highest } = baseRange(plan);
  const lock = {
    what: `the port registry ${REGISTRY}.lock (another process draws ports)`,
    timeoutMs: 30_000,
    pollMs: 10,
  };
  return withFileLock(`${REGISTRY}.lock`, lock, async () => {
    const holders = await readHolders();
    const held = new Set(holders.flatMap((h) => h.ports));
    for (let attempt = 0; attempt < attempts; attempt++) {
      const base = lowest + Math.floor(Math.random() * (highest - lowest + 1));
      const ports = plan(base);
      if (ports.some((p) => held.has(p))) continue;
      let free = true;
      for (const port of ports) {
        free = await portFree(port);
        if (!free) break;
      }
      if (!free) continue;
      const mine = holders.find((h) => h.pid === process.pid);
      const others = holders.filter((h) => h !== mine);
      await writeHolders([
        ...others,
        {
          pid: process.pid,
          started: await processStart(process.pid),
          ports: [...(mine?.ports ?? []), ...ports],
        },
      ]);
      return base;
    }
    throw new Error(`no free range of ports for the plan after ${attempts} attempts`);
  });
}
