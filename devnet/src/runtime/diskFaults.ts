/**
 * The disk faults of a devnet's nodes (`devnet disk NODE …`, the testkit's node handles, scenario
 * steps), written once for every runtime: the devnet owns them as <home>/disk_faults.json in each
 * node's home on this machine (the node's form: docs/PROTOCOL.md, "Disk faults"), which the
 * runtime puts where the node reads its home (NodeHandle.copyHomeFile; the process and threads
 * runtimes read the home itself). Being in the home, they are there again when the node restarts,
 * is upgraded or restored, and go into `devnet save`. The node's own fault layer puts them in
 * force (backend `layer`): a full disk refuses writes with ENOSPC as the system would.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DISK_FAULTS_FILE,
  type DiskFaults,
  formatDiskFaults,
  isDiskFaultsProblem,
  NO_DISK_FAULTS,
  noDiskFault,
  parseDiskFaults,
} from '@chain-devnet/node/testnet';
import type { Layout } from '../base/layout.js';
import type { NodeHandle } from './runtime.js';

export { DISK_FAULTS_FILE, type DiskFaults, NO_DISK_FAULTS, noDiskFault };

/** How the faults are put in force: the node's own fault layer (the only backend so far). */
export const DISK_BACKEND = 'layer';

/** A change of a node's disk faults: the fields given are set, `clear` first drops every one. */
export interface DiskChange {
  readonly clear?: boolean;
  readonly full?: boolean;
  readonly writeDelayMs?: number;
  readonly fsyncDelayMs?: number;
  readonly loseUnsynced?: boolean;
}

export class DiskFaultFiles {
  constructor(
    private readonly layout: Layout,
    private readonly runtime: { node(name: string): Pick<NodeHandle, 'copyHomeFile'> },
  ) {}

  /** The faults applied to `name` (none when its home has no file). */
  async of(name: string): Promise<DiskFaults> {
    const text = await readFile(join(this.layout.nodeHome(name), DISK_FAULTS_FILE), 'utf8').catch(() => null);
    if (text === null) return NO_DISK_FAULTS;
    const parsed = parseDiskFaults(text);
    return isDiskFaultsProblem(parsed) ? NO_DISK_FAULTS : parsed;
  }

  /** Applies `change` to `name`'s faults and hands them to the node; returns those now in force. */
  async change(name: string, change: DiskChange): Promise<DiskFaults> {
    const before = change.clear === true ? NO_DISK_FAULTS : await this.of(name);
    const next: DiskFaults = {
      full: change.full ?? before.full,
      writeDelayMs: change.writeDelayMs ?? before.writeDelayMs,
      fsyncDelayMs: change.fsyncDelayMs ?? before.fsyncDelayMs,
      loseUnsynced: change.loseUnsynced ?? before.loseUnsynced,
    };
    const home = this.layout.nodeHome(name);
    await writeFile(join(home, DISK_FAULTS_FILE), formatDiskFaults(next));
    await this.runtime.node(name).copyHomeFile(home, DISK_FAULTS_FILE);
    return next;
  }
}

/** One line for a node's faults: "full, writes +50 ms, fsyncs +50 ms, unsynced lost" or "none". */
export function describeDiskFaults(f: DiskFaults): string {
  const parts = [
    f.full ? 'full' : '',
    f.writeDelayMs > 0 ? `writes +${f.writeDelayMs} ms` : '',
    f.fsyncDelayMs > 0 ? `fsyncs +${f.fsyncDelayMs} ms` : '',
    f.loseUnsynced ? 'unsynced lost' : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? 'none' : parts.join(', ');
}
