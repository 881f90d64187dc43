/**
 * `devnet disk [NODE] [--full | --free] [--slow-writes D] [--slow-fsync D] [--fast]
 * [--lose-unsynced | --keep-unsynced] [--clear]`: a node's disk faults (runtime/diskFaults.ts);
 * without a change, those in force; without NODE, every node's.
 */
import { defineCommand, duration, flag } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import {
  type DiskBackend,
  type DiskChange,
  type DiskState,
  describeDiskFaults,
} from '../../runtime/diskFaults.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

/** `devnet disk --json`: each node's faults in disk_faults.json's names, and its backend. */
export interface DiskJson {
  readonly nodes: readonly {
    readonly node: string;
    /** `tmpfs`: its store on a data disk of its own, filled for real; `layer`: the node's own fault layer. */
    readonly backend: DiskBackend;
    readonly full: boolean;
    readonly write_delay_ms: number;
    readonly fsync_delay_ms: number;
    readonly lose_unsynced: boolean;
  }[];
}

const json = (node: string, { faults: f, backend }: DiskState) => ({
  node,
  backend,
  full: f.full,
  write_delay_ms: f.writeDelayMs,
  fsync_delay_ms: f.fsyncDelayMs,
  lose_unsynced: f.loseUnsynced,
});

/** Why a node asked for a full disk gets the layer: no disk of its own, or no root to mount one. */
function layerNote(d: Devnet, name: string, s: DiskState, change: DiskChange): string {
  if (s.backend !== 'layer' || change.full === undefined) return '';
  if (d.node(name).diskBytes === null) return ": no disk of its own, see the manifest's disk";
  const here = d.runtime.kind === 'process' || d.runtime.kind === 'threads';
  return here && process.getuid?.() !== 0 ? ': a tmpfs needs root on this runtime' : '';
}

export const diskCommand = defineCommand({
  name: 'disk',
  summary: "a node's disk faults: full, freed, slow writes and fsyncs, unsynced writes lost to a kill",
  options: {
    full: flag('fill the disk: every write of the node fails with ENOSPC (it stops committing and signing)'),
    free: flag('free the disk again (the node goes on and catches up)'),
    'slow-writes': duration('each write of the node waits D', {}),
    'slow-fsync': duration('each fsync of the node waits D', {}),
    fast: flag('writes and fsyncs without a delay again'),
    'lose-unsynced': flag('writes without an fsync stay in memory: a kill loses them (lazyfs)'),
    'keep-unsynced': flag('undo --lose-unsynced (what was held goes to disk)'),
    clear: flag('drop every disk fault of the node first'),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [{ name: 'NODE', description: 'which node (none: list every node)' }],
  details:
    'The faults are the devnet\'s: kept in the node\'s home as disk_faults.json (docs/PROTOCOL.md, "Disk faults"), ' +
    'given to the node again when it restarts, is upgraded or restored, and saved by devnet save. ' +
    "The node's own fault layer puts them in force (every node of a devnet runs with --fault-injection, backend layer); " +
    "a node with a disk of its own (the manifest's disk: {size}) is filled for real, its tmpfs until the system's ENOSPC (backend tmpfs); " +
    'devnet status shows them per node, with whether the node says its writes succeed.',
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const name = positionals[0];
    if (v.full && v.free) throw new Error('devnet disk: --full and --free contradict each other');
    if (v['lose-unsynced'] && v['keep-unsynced'])
      throw new Error('devnet disk: --lose-unsynced and --keep-unsynced contradict each other');
    const change: DiskChange = {
      ...(v.clear ? { clear: true } : {}),
      ...(v.full ? { full: true } : v.free ? { full: false } : {}),
      ...(v.fast ? { writeDelayMs: 0, fsyncDelayMs: 0 } : {}),
      ...(v['slow-writes'] === undefined ? {} : { writeDelayMs: v['slow-writes'] }),
      ...(v['slow-fsync'] === undefined ? {} : { fsyncDelayMs: v['slow-fsync'] }),
      ...(v['lose-unsynced'] ? { loseUnsynced: true } : v['keep-unsynced'] ? { loseUnsynced: false } : {}),
    };
    const changes = Object.keys(change).length > 0;
    if (changes && name === undefined) throw new Error('devnet disk: a change needs NODE');
    const names = name === undefined ? d.nodes.map((n) => n.name) : [d.node(name).name];
    const rows: [string, DiskState][] = [];
    for (const n of names) {
      if (changes) await d.disk.change(n, change);
      rows.push([n, await d.disk.state(n)]);
    }
    if (v.json) printJson<DiskJson>({ nodes: rows.map(([n, s]) => json(n, s)) });
    else
      for (const [n, s] of rows)
        out(
          `${n.padEnd(14)} ${describeDiskFaults(s.faults)}  (backend ${s.backend}${layerNote(d, n, s, change)})`,
        );
    return 0;
  },
});
