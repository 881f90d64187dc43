/**
 * The disk faults of a devnet's nodes (`devnet disk NODE …`, the testkit's node handles, scenario
 * steps), written once for every runtime: the devnet owns them as <home>/disk_faults.json in each
 * node's home on this machine (the node's form: docs/PROTOCOL.md, "Disk faults"), which the
 * runtime puts where the node reads its home (NodeHandle.copyHomeFile; the process and threads
 * runtimes read the home itself). Being in the home, they are there again when the node restarts,
 * is upgraded or restored, and go into `devnet save`. The node's own fault layer puts them in
 * force (backend `layer`): a full disk refuses writes with ENOSPC as the system would. A node
 * whose store is on a data disk of its own (backend `tmpfs`, dataDisk.ts) is filled for real
 * instead: the filler program fills its tmpfs until the system answers ENOSPC, and the file says
 * `full: false` (the other faults still go through the layer).
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
import type { DiskBackend } from './dataDisk.js';
import type { NodeHandle, Noted } from './runtime.js';

export type { DiskBackend };
export { DISK_FAULTS_FILE, type DiskFaults, NO_DISK_FAULTS, noDiskFault };

/** A node's faults and how its full disk is made. */
export interface DiskState {
  readonly faults: DiskFaults;
  readonly backend: DiskBackend;
}

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
    private readonly runtime: {
      node(name: string): Pick<NodeHandle, 'copyHomeFile' | 'diskBackend' | 'fillDisk'>;
    },
    /** Told each change of a node's disk faults (the devnet's timeline, timeline/events.ts). */
    private readonly noted: Noted = () => undefined,
  ) {}

  /** The faults applied to `name` (none when its home has no file), `full` when its tmpfs is filled. */
  async of(name: string): Promise<DiskFaults> {
    return (await this.state(name)).faults;
  }

  /** The faults applied to `name` and its backend. */
  async state(name: string): Promise<DiskState> {
    const handle = this.runtime.node(name);
    const [file, backend] = await Promise.all([this.file(name), handle.diskBackend()]);
    if (backend === 'layer') return { faults: file, backend };
    return { faults: { ...file, full: file.full || (await handle.fillDisk('check')) }, backend };
  }

  /** The faults of the node's disk_faults.json (none when its home has no file). */
  private async file(name: string): Promise<DiskFaults> {
    const text = await readFile(join(this.layout.nodeHome(name), DISK_FAULTS_FILE), 'utf8').catch(() => null);
    if (text === null) return NO_DISK_FAULTS;
    const parsed = parseDiskFaults(text);
    return isDiskFaultsProblem(parsed) ? NO_DISK_FAULTS : parsed;
  }

  /** Applies `change` to `name`'s faults and hands them to the node; returns those now in force. */
  async change(name: string, change: DiskChange): Promise<DiskFaults> {
    const handle = this.runtime.node(name);
    const tmpfs = (await handle.diskBackend()) === 'tmpfs';
    const before = await this.file(name);
    const full = change.full ?? (change.clear === true ? false : undefined);
    // A tmpfs is filled (or freed) for real; the layer is then never told the disk is full.
    const filled = tmpfs && full !== undefined ? await handle.fillDisk(full ? 'fill' : 'free') : null;
    const merged = changedDiskFaults(before, change);
    this.noted(`disk ${name}`, { node: name, faults: merged });
    const next: DiskFaults = tmpfs ? { ...merged, full: false } : merged;
    const home = this.layout.nodeHome(name);
    await writeFile(join(home, DISK_FAULTS_FILE), formatDiskFaults(next));
    await handle.copyHomeFile(home, DISK_FAULTS_FILE);
    if (!tmpfs) return next;
    return { ...next, full: filled ?? (await handle.fillDisk('check')) };
  }
}

/** `before` with `change` applied: `clear` drops every fault first, then the fields given are set. */
export function changedDiskFaults(before: DiskFaults, change: DiskChange): DiskFaults {
  const from = change.clear === true ? NO_DISK_FAULTS : before;
  return {
    full: change.full ?? from.full,
    writeDelayMs: change.writeDelayMs ?? from.writeDelayMs,
    fsyncDelayMs: change.fsyncDelayMs ?? from.fsyncDelayMs,
    loseUnsynced: change.loseUnsynced ?? from.loseUnsynced,
  };
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
