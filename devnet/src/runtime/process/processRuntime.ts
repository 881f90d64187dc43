/**
 * The process runtime: every node is a detached `chain-node start` process on 127.0.0.1, its
 * id in run/<name>.pid and its output in logs/<name>.log. Pause and resume are SIGSTOP and
 * SIGCONT; disconnect and partition write blocked_peers.json on every node from what is in force
 * (each node's connection gater then refuses those peers; the node watches the file). Prometheus runs
 * as a process when a `prometheus` binary is on PATH, Grafana when a Grafana server binary is.
 */
import { existsSync } from 'node:fs';
import { access, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import {
  findOnPath,
  procState,
  readPid,
  removePidFile,
  signal,
  spawnDetached,
  stopProcess,
  waitFor,
} from '@chain-devnet/node/harness';
import { nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import { DevnetError } from '../../errors.js';
import type { Layout } from '../../layout.js';
import { MARKET_JOB, renderPrometheusConfig } from '../../monitoring/prometheusConfig.js';
import { dashboardsPath, nodePackagePath } from '../../repo.js';
import type { NetworkSpec, NodeSpec } from '../../spec/networkSpec.js';
import { BlockedPeers } from '../blockedPeers.js';
import { localEndpoint, localServiceUrl } from '../localEndpoint.js';
import { tailFile } from '../logTail.js';
import { grafanaProvisioning } from '../monitoringFiles.js';
import { nodeStartArgs } from '../nodeCommand.js';
import type { Groups } from '../partition.js';
import type {
  LogOptions,
  MonitoringEndpoints,
  NodeEndpoint,
  NodeLaunch,
  NodeRunState,
  PeerInfo,
  Progress,
  Runtime,
  ServiceLaunch,
} from '../runtime.js';

/** The compiled node (the tests run it; npm run build makes it). */
export const CHAIN_NODE_JS = nodePackagePath('dist', 'src', 'bin', 'chain-node.js');
/** The same node in one file, started from V8's code cache: one file to load, little to compile. */
const CHAIN_NODE_BUNDLE = nodePackagePath('dist', 'bundle', 'chain-node.mjs');
const NODE_PROGRAM = existsSync(CHAIN_NODE_BUNDLE) ? CHAIN_NODE_BUNDLE : CHAIN_NODE_JS;
const CHAIN_MARKET_BUNDLE = nodePackagePath('dist', 'bundle', 'chain-market.mjs');
const MARKET_PROGRAM = existsSync(CHAIN_MARKET_BUNDLE)
  ? CHAIN_MARKET_BUNDLE
  : nodePackagePath('dist', 'src', 'bin', 'chain-market.js');

const MONITORS = ['prometheus', 'grafana'] as const;

export class ProcessRuntime implements Runtime {
  readonly kind = 'process' as const;
  private readonly blocked: BlockedPeers;

  constructor(private readonly layout: Layout) {
    this.blocked = new BlockedPeers(layout);
  }

  async prepare(progress: Progress): Promise<void> {
    try {
      await access(NODE_PROGRAM);
    } catch {
      throw new DevnetError(
        'NODE_START',
        `the node is not built (${NODE_PROGRAM} is missing): run npm run build`,
      );
    }
    progress('runtime: local processes');
  }

  /**
   * The marker that ties a pid to this devnet's process (the home folder is on its command
   * line). A service's folder exists from its first start; a node never has one (their names
   * are the devnet's accounts', which never share a node's name).
   */
  private marker(name: string): string {
    if (name === 'prometheus' || name === 'grafana') return join(this.layout.monitoringDir, name);
    const service = this.layout.serviceHome(name);
    return existsSync(service) ? service : this.layout.nodeHome(name);
  }

  async startNode(l: NodeLaunch): Promise<void> {
    const name = l.node.name;
    if ((await this.nodeState(name)) === 'running') return;
    await writeNodeFile(l.home, nodeFileOf(l.node, l.peers, { host: '127.0.0.1' }));
    await spawnDetached({
      command: process.execPath,
      args: [NODE_PROGRAM, ...nodeStartArgs(l.node, { home: l.home })],
      logFile: this.layout.logFile(name),
      pidFile: this.layout.pidFile(name),
    });
  }

  async serviceUrl(port: number): Promise<string> {
    return localServiceUrl(port);
  }

  async startService(s: ServiceLaunch): Promise<void> {
    if ((await this.nodeState(s.name)) === 'running') return;
    await spawnDetached({
      command: process.execPath,
      args: [
        MARKET_PROGRAM,
        ...s.args({
          home: s.home,
          host: '127.0.0.1',
          rpc: (n) => `http://127.0.0.1:${n.rpcPort}`,
          service: (_name, port) => localServiceUrl(port),
        }),
      ],
      logFile: this.layout.logFile(s.name),
      pidFile: this.layout.pidFile(s.name),
    });
  }

  private async pidOf(name: string): Promise<number | null> {
    const pid = await readPid(this.layout.pidFile(name));
    if (pid === null) return null;
    return (await procState(pid, this.marker(name))) === 'absent' ? null : pid;
  }

  private async requirePid(name: string, what: string): Promise<number> {
    const pid = await this.pidOf(name);
    if (pid === null) throw new DevnetError('UNKNOWN_NODE', `${name} is not running: cannot ${what} it`);
    return pid;
  }

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    return localEndpoint(node);
  }

  async stopNode(name: string): Promise<void> {
    const pid = await this.pidOf(name);
    if (pid !== null) await stopProcess(pid, this.marker(name));
    await removePidFile(this.layout.pidFile(name));
  }

  async killNode(name: string): Promise<void> {
    const pid = await this.requirePid(name, 'kill');
    signal(pid, 'SIGKILL');
    await stopProcess(pid, this.marker(name), 5_000);
    await removePidFile(this.layout.pidFile(name));
  }

  async pauseNode(name: string): Promise<void> {
    await this.signalUntil(name, 'pause', 'SIGSTOP', 'stopped');
  }

  async resumeNode(name: string): Promise<void> {
    await this.signalUntil(name, 'resume', 'SIGCONT', 'running');
  }

  /**
   * A signal is delivered when the process is next scheduled, not when kill() returns: on a busy
   * machine a node read right after `pause` was still running (the testkit's pause test saw it).
   * The operation ends when the kernel shows the state it asked for (bounded).
   */
  private async signalUntil(
    name: string,
    op: string,
    sig: NodeJS.Signals,
    want: 'stopped' | 'running',
  ): Promise<void> {
    const pid = await this.requirePid(name, op);
    signal(pid, sig);
    const s = await waitFor(`${name} ${want} after ${sig}`, 5_000, async () => {
      const now = await procState(pid, this.marker(name));
      return (now === want || now === 'absent') && now;
    });
    if (s === 'absent') throw new DevnetError('UNKNOWN_NODE', `${name} exited: cannot ${op} it`);
  }

  async disconnectNode(name: string, all: readonly PeerInfo[]): Promise<void> {
    await this.blocked.disconnect(name, all);
  }

  async connectNode(name: string, all: readonly PeerInfo[]): Promise<void> {
    await this.blocked.connect(name, all);
  }

  async isDisconnected(name: string): Promise<boolean> {
    return this.blocked.isDisconnected(name);
  }

  async partition(groups: Groups | null, all: readonly PeerInfo[]): Promise<void> {
    await this.blocked.partition(groups, all);
  }

  async nodeState(name: string): Promise<NodeRunState> {
    const pid = await readPid(this.layout.pidFile(name));
    if (pid === null) return 'stopped';
    const s = await procState(pid, this.marker(name));
    return s === 'absent' ? 'stopped' : s === 'stopped' ? 'paused' : 'running';
  }

  async logs(name: string, o: LogOptions, out: Writable): Promise<void> {
    await tailFile(this.layout.logFile(name), o, out);
  }

  async startMonitoring(
    spec: NetworkSpec,
    nodes: readonly NodeSpec[],
    progress: Progress,
  ): Promise<MonitoringEndpoints> {
    const notes: string[] = [];
    const dir = this.layout.monitoringDir;
    await mkdir(dir, { recursive: true });
    let prometheus: string | null = null;
    const prometheusBin = findOnPath('prometheus');
    if (prometheusBin === null) {
      notes.push(
        'Prometheus skipped: no prometheus binary on PATH (Debian/Ubuntu: apt-get install prometheus; or use --runtime docker)',
      );
    } else {
      const configPath = join(dir, 'prometheus.yml');
      await writeFile(
        configPath,
        renderPrometheusConfig(
          nodes.map((n) => ({ name: n.name, address: `127.0.0.1:${n.rpcPort}` })),
          {
            scrapeInterval: '1s',
            services:
              spec.marketPort === null ? [] : [{ job: MARKET_JOB, address: `127.0.0.1:${spec.marketPort}` }],
          },
        ),
      );
      const address = `127.0.0.1:${spec.monitoringPorts.prometheus}`;
      if ((await this.nodeState('prometheus')) !== 'running')
        await spawnDetached({
          command: prometheusBin,
          args: [
            `--config.file=${configPath}`,
            `--storage.tsdb.path=${join(dir, 'prometheus', 'data')}`,
            `--web.listen-address=${address}`,
            '--web.enable-lifecycle',
          ],
          logFile: join(dir, 'prometheus.log'),
          pidFile: this.layout.pidFile('prometheus'),
        });
      prometheus = `http://${address}`;
      progress(`prometheus: ${prometheus}`);
    }
    let grafana: string | null = null;
    const grafanaBin = findOnPath('grafana', 'grafana-server');
    if (grafanaBin === null) {
      notes.push(
        'Grafana skipped: no grafana server binary on PATH (see grafana.com/docs; or use --runtime docker)',
      );
    } else if (prometheus === null) {
      notes.push('Grafana skipped: it needs Prometheus');
    } else {
      const gdir = join(dir, 'grafana');
      const provisioning = await grafanaProvisioning(join(gdir, 'provisioning'), dashboardsPath('json'));
      const address = spec.monitoringPorts.grafana;
      const args = grafanaBin.endsWith('grafana-server') ? [] : ['server'];
      const homepath = process.env.GRAFANA_HOME ?? '/usr/share/grafana';
      if ((await this.nodeState('grafana')) !== 'running')
        await spawnDetached({
          command: grafanaBin,
          // The data path on the command line also marks the process as this devnet's.
          args: [...args, '--homepath', homepath, `cfg:default.paths.data=${join(gdir, 'data')}`],
          env: {
            ...process.env,
            PROMETHEUS_URL: prometheus,
            GF_SERVER_HTTP_ADDR: '127.0.0.1',
            GF_SERVER_HTTP_PORT: String(address),
            GF_PATHS_LOGS: join(gdir, 'logs'),
            GF_PATHS_PROVISIONING: provisioning,
            GF_AUTH_ANONYMOUS_ENABLED: 'true',
            GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
          },
          logFile: join(gdir, 'grafana.log'),
          pidFile: this.layout.pidFile('grafana'),
        });
      grafana = `http://127.0.0.1:${address}`;
      progress(`grafana: ${grafana}`);
    }
    return { prometheus, grafana, notes };
  }

  async teardown(keepData: boolean): Promise<string[]> {
    const removed: string[] = [];
    const names = await this.runNames();
    await Promise.all(
      names.map(async (name) => {
        const pid = await this.pidOf(name);
        if (pid !== null) {
          await stopProcess(pid, this.marker(name));
          removed.push(`process ${name} (pid ${pid})`);
        }
        await removePidFile(this.layout.pidFile(name));
      }),
    );
    if (!keepData) {
      await rm(this.layout.home, { recursive: true, force: true });
      removed.push(`folder ${this.layout.home}`);
    }
    return removed;
  }

  /** Every process with a pid file: the nodes and the monitors. */
  private async runNames(): Promise<string[]> {
    const files = await readdir(join(this.layout.home, 'run')).catch(() => [] as string[]);
    const names = files.filter((f) => f.endsWith('.pid')).map((f) => f.slice(0, -4));
    for (const m of MONITORS) if (!names.includes(m)) names.push(m);
    return names;
  }
}
