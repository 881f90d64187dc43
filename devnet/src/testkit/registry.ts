/**
 * What a run started, recorded outside it: one small file per run under the OS temp folder
 * (chain-devnet-testkit/<run>.json, or the folder TESTKIT_REGISTRY names) with the devnet's home, its runtime and the starter's pid and
 * start time. A run that ends removes its file; a run that was killed (its starter gone) leaves
 * it, and the next start tears down what it names, keeping its nodes' logs first.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stillRunning } from '@chain-devnet/kit/process';
import type { RuntimeKind } from '../runtime/runtime.js';

export interface RunRecord {
  readonly home: string;
  readonly runtime: RuntimeKind;
  readonly pid: number;
  /** The starter's start time (clock ticks since boot, /proc/<pid>/stat): a reused pid is not the starter. */
  readonly pidStart: string | null;
  readonly startedAt: string;
  /** Where its logs go when it failed. */
  readonly logsDir: string;
  /** A folder the run made for the devnet (removed with it), or null. */
  readonly tmp: string | null;
  readonly name: string;
}

/** TESTKIT_REGISTRY, else chain-devnet-testkit under the OS temp folder. */
export function registryDir(): string {
  return process.env.TESTKIT_REGISTRY ?? join(tmpdir(), 'chain-devnet-testkit');
}

export function isAlive(r: RunRecord): Promise<boolean> {
  return stillRunning(r.pid, r.pidStart);
}

export class RunRegistry {
  constructor(readonly dir = registryDir()) {}

  fileOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  async add(id: string, r: RunRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.fileOf(id), `${JSON.stringify(r, null, 2)}\n`);
  }

  async remove(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
  }

  async read(id: string): Promise<RunRecord | null> {
    try {
      return JSON.parse(await readFile(this.fileOf(id), 'utf8')) as RunRecord;
    } catch {
      return null;
    }
  }

  /** Every recorded run whose starter is gone. */
  async leftovers(): Promise<{ id: string; record: RunRecord }[]> {
    const files = await readdir(this.dir).catch(() => [] as string[]);
    const out: { id: string; record: RunRecord }[] = [];
    for (const f of files.filter((x) => x.endsWith('.json'))) {
      const id = f.slice(0, -5);
      const record = await this.read(id);
      // Unreadable: being written, or not ours.
      if (record !== null && !(await isAlive(record))) out.push({ id, record });
    }
    return out;
  }
}
