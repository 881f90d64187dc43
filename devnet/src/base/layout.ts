/**
 * Where a devnet keeps its files, under its home folder (default ./.devnet):
 *   devnet.json            the state: runtime, spec inputs, nodes added later
 *   accounts.json          keys of the funded accounts (mode 600)
 *   nodes/<name>/          a node's home: genesis.json, validator_key.json, p2p_key, node.json, data
 *   logs/<name>.log        a node's log (process and threads runtimes); docker, swarm: the last lines of containers
 *                          (tasks) `devnet upgrade` replaced (the current one's are the engine's)
 *   run/<name>.pid         a process's id (process runtime)
 *   run/<name>.exit        how a node's process (thread) ended: its exit status (process, threads)
 *   monitoring/            prometheus.yml, Prometheus data, Grafana provisioning and data
 *   services/<name>/       a service beside the nodes (the task market, its worker): key, data
 *   partition.json         the groups of a partition in force (every runtime)
 *   net.json               the network conditions in force: links, one-way cuts, zones (net/netState.ts)
 *   ui/                    the panel: its key (mode 600), pid file and log
 *   threads/               the threads runtime's host: its socket, pid file and log
 *   saves/                 archives saved from the panel (devnet save)
 *   fork-genesis.json      a forked devnet's genesis (devnet up --fork), made from its source's state
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { DevnetError } from './errors.js';
import { isName } from './names.js';

/**
 * A name as a path segment: a devnet.json edited by hand or restored from a stranger's archive
 * must not reach outside the home through a name (`../x`), whatever path led here.
 */
function segment(name: string): string {
  if (!isName(name))
    throw new DevnetError(
      'UNKNOWN_NODE',
      `${JSON.stringify(name.slice(0, 80))} is not a node or service name (lowercase letters, digits and dashes)`,
    );
  return name;
}

export class Layout {
  readonly home: string;
  constructor(home: string) {
    this.home = resolve(home);
  }
  get stateFile(): string {
    return join(this.home, 'devnet.json');
  }
  get accountsFile(): string {
    return join(this.home, 'accounts.json');
  }
  nodeHome(name: string): string {
    return join(this.home, 'nodes', segment(name));
  }
  logFile(name: string): string {
    return join(this.home, 'logs', `${segment(name)}.log`);
  }
  pidFile(name: string): string {
    return join(this.home, 'run', `${segment(name)}.pid`);
  }
  exitFile(name: string): string {
    return join(this.home, 'run', `${segment(name)}.exit`);
  }
  serviceHome(name: string): string {
    return join(this.home, 'services', segment(name));
  }
  get partitionFile(): string {
    return join(this.home, 'partition.json');
  }
  get netFile(): string {
    return join(this.home, 'net.json');
  }
  get monitoringDir(): string {
    return join(this.home, 'monitoring');
  }
  get savesDir(): string {
    return join(this.home, 'saves');
  }
  get forkGenesisFile(): string {
    return join(this.home, 'fork-genesis.json');
  }
  /** The devnet's own operations, a JSON line each (timeline/events.ts). */
  get eventsFile(): string {
    return join(this.home, 'events.jsonl');
  }
  /**
   * A log of the timeline from before this home (a restored archive's `timeline/<source>.log`:
   * the node's, a service's or the devnet's own, as they were when it was saved).
   */
  earlierLog(source: string): string {
    return join(this.home, 'timeline', `${segment(source)}.log`);
  }
  get uiDir(): string {
    return join(this.home, 'ui');
  }
  /** A short id of this devnet (from its absolute home), used in container and network names. */
  get id(): string {
    return createHash('sha256').update(this.home).digest('hex').slice(0, 8);
  }
}
