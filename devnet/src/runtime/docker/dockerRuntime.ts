/**
 * The docker runtime (dockerode). Per devnet: a p2p bridge network where nodes find each other by
 * name, a second bridge network with inter-container traffic off that only carries the ports
 * published on 127.0.0.1 (so a node cut off the p2p network keeps its RPC), and per node one
 * container and one volume (/data). Everything carries the labels io.chain-devnet.devnet=<id>
 * and io.chain-devnet.home=<home>, which is how later commands and `down` find it. Pause and
 * disconnect are the engine's own pause and network disconnect; a partition is each node's
 * blocked-peers file (the node's fault injection), copied into its volume.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import {
  BLOCKED_PEERS_FILE,
  CONTAINER_PORTS,
  nodeFileOf,
  writeBlockedPeers,
  writeNodeFile,
} from '@chain-devnet/node/testnet';
import type Docker from 'dockerode';
import tar from 'tar-fs';
import { DevnetError } from '../../errors.js';
import type { Layout } from '../../layout.js';
import {
  MARKET_JOB,
  MARKET_SERVICE_NAME,
  renderPrometheusConfig,
} from '../../monitoring/prometheusConfig.js';
import { repoPath } from '../../repo.js';
import { type NetworkSpec, type NodeSpec, nodeStartFlags } from '../../spec/networkSpec.js';
import { type Groups, refusedBy } from '../partition.js';
import type {
  LogOptions,
  MonitoringEndpoints,
  NodeLaunch,
  NodeRunState,
  PeerInfo,
  Progress,
  Runtime,
  ServiceLaunch,
} from '../runtime.js';
import { docker } from './engine.js';
import { buildHostImage, ensureImage, imageExists, tryPull } from './images.js';
import { ensureNodeImage, MARKET_IN_IMAGE } from './nodeImage.js';

const LABEL_DEVNET = 'io.chain-devnet.devnet';
const LABEL_HOME = 'io.chain-devnet.home';
const LABEL_NODE = 'io.chain-devnet.node';
const RPC_PORT = CONTAINER_PORTS.rpcPort;
const P2P_PORT = CONTAINER_PORTS.p2pPort;
const PROMETHEUS_IMAGE = 'prom/prometheus:v2.42.0';
const GRAFANA_IMAGE = 'grafana/grafana:10.4.2';

function isNotFound(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 404;
}

export class DockerRuntime implements Runtime {
  readonly kind = 'docker' as const;
  private nodeImage: string | null = null;

  constructor(private readonly layout: Layout) {}

  private get d(): Docker {
    return docker();
  }

  private name(what: string): string {
    return `devnet-${this.layout.id}-${what}`;
  }

  private get p2pNetwork(): string {
    return `devnet-${this.layout.id}`;
  }

  private get portsNetwork(): string {
    return `devnet-${this.layout.id}-ports`;
  }

  private labels(node?: string): Record<string, string> {
    return {
      [LABEL_DEVNET]: this.layout.id,
      [LABEL_HOME]: this.layout.home,
      ...(node === undefined ? {} : { [LABEL_NODE]: node }),
    };
  }

  async prepare(progress: Progress): Promise<void> {
    progress('runtime: Docker');
    this.nodeImage = await ensureNodeImage(progress);
    await this.ensureNetwork(this.p2pNetwork, {});
    // No traffic between containers here: this network only carries the published ports.
    await this.ensureNetwork(this.portsNetwork, { 'com.docker.network.bridge.enable_icc': 'false' });
  }

  private async ensureNetwork(name: string, options: Record<string, string>): Promise<void> {
    try {
      await this.d.getNetwork(name).inspect();
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.d.createNetwork({ Name: name, Driver: 'bridge', Labels: this.labels(), Options: options });
    }
  }

  private async inspect(name: string): Promise<Docker.ContainerInspectInfo | null> {
    try {
      return await this.d.getContainer(this.name(name)).inspect();
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  private async requireContainer(name: string, what: string): Promise<Docker.Container> {
    const info = await this.inspect(name);
    if (info === null) throw new DevnetError('UNKNOWN_NODE', `${name} has no container: cannot ${what} it`);
    return this.d.getContainer(info.Id);
  }

  async startNode(l: NodeLaunch): Promise<void> {
    const name = l.node.name;
    const info = await this.inspect(name);
    if (info !== null) {
      const c = this.d.getContainer(info.Id);
      if (info.State.Paused) await c.unpause();
      else if (!info.State.Running) await c.start();
      return;
    }
    this.nodeImage ??= await ensureNodeImage(() => undefined);
    // Peers by container name on the devnet's p2p network (each container also has its node's name as an alias).
    await writeNodeFile(
      l.home,
      nodeFileOf(l.node, l.peers, { containers: true, dnsName: (n) => this.name(n) }),
    );
    const volume = this.name(name);
    await this.d.createVolume({ Name: volume, Labels: this.labels(name) });
    const c = await this.d.createContainer({
      name: this.name(name),
      Hostname: name,
      Image: this.nodeImage,
      Cmd: [
        'start',
        '--home',
        '/data',
        '--host',
        '0.0.0.0',
        '--p2p-host',
        '0.0.0.0',
        ...nodeStartFlags(l.node),
      ],
      Labels: this.labels(name),
      ExposedPorts: { [`${RPC_PORT}/tcp`]: {}, [`${P2P_PORT}/tcp`]: {} },
      HostConfig: {
        NetworkMode: this.portsNetwork,
        Binds: [`${volume}:/data`],
        PortBindings: {
          [`${RPC_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(l.node.rpcPort) }],
          [`${P2P_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(l.node.p2pPort) }],
        },
        // SIGTERM first, SIGKILL after 10 s, as the process runtime.
        Init: false,
      },
      StopTimeout: 10,
    });
    // The node's home (genesis, keys, node.json) goes into its volume before the first start.
    await this.joinAndStart(c, name, l.home);
  }

  /** A new container on the p2p network under its name, its home in /data, started. */
  private async joinAndStart(c: Docker.Container, name: string, home: string): Promise<void> {
    await this.d
      .getNetwork(this.p2pNetwork)
      .connect({ Container: c.id, EndpointConfig: { Aliases: [name] } });
    await c.putArchive(tar.pack(home), { path: '/data' });
    try {
      await c.start();
    } catch (e) {
      const msg = (e as Error).message;
      throw new DevnetError(
        /port is already allocated|address already in use/.test(msg) ? 'PORT_TAKEN' : 'NODE_START',
        `${name} did not start: ${msg.split('\n')[0]}`,
      );
    }
  }

  /**
   * A service is a container of the node image running chain-market instead of chain-node, on
   * both networks (it reaches the nodes by name on the p2p network), its home in a volume.
   */
  async startService(s: ServiceLaunch): Promise<void> {
    const info = await this.inspect(s.name);
    if (info !== null) {
      if (!info.State.Running) await this.d.getContainer(info.Id).start();
      return;
    }
    this.nodeImage ??= await ensureNodeImage(() => undefined);
    const volume = this.name(s.name);
    await this.d.createVolume({ Name: volume, Labels: this.labels(s.name) });
    const port = s.port === null ? null : `${s.port}/tcp`;
    const c = await this.d.createContainer({
      name: this.name(s.name),
      Hostname: s.name,
      Image: this.nodeImage,
      Entrypoint: ['node', MARKET_IN_IMAGE],
      Cmd: s.args({
        home: '/data',
        host: '0.0.0.0',
        rpc: (n) => `http://${this.name(n.name)}:${RPC_PORT}`,
        service: (name, p) => `http://${this.name(name)}:${p}`,
      }),
      Labels: this.labels(s.name),
      ExposedPorts: port === null ? {} : { [port]: {} },
      HostConfig: {
        NetworkMode: this.portsNetwork,
        Binds: [`${volume}:/data`],
        PortBindings: port === null ? {} : { [port]: [{ HostIp: '127.0.0.1', HostPort: String(s.port) }] },
      },
      StopTimeout: 10,
    });
    await this.joinAndStart(c, s.name, s.home);
  }

  async stopNode(name: string): Promise<void> {
    const info = await this.inspect(name);
    if (info === null || !info.State.Running) return;
    const c = this.d.getContainer(info.Id);
    if (info.State.Paused) await c.unpause();
    await c.stop({ t: 10 });
  }

  async killNode(name: string): Promise<void> {
    const c = await this.requireContainer(name, 'kill');
    await c.kill({ signal: 'SIGKILL' });
    await c.wait({ condition: 'not-running' });
  }

  async pauseNode(name: string): Promise<void> {
    await (await this.requireContainer(name, 'pause')).pause();
  }

  async resumeNode(name: string): Promise<void> {
    await (await this.requireContainer(name, 'resume')).unpause();
  }

  async disconnectNode(name: string, _all: readonly PeerInfo[]): Promise<void> {
    const c = await this.requireContainer(name, 'disconnect');
    if (await this.isDisconnected(name)) return;
    await this.d.getNetwork(this.p2pNetwork).disconnect({ Container: c.id, Force: true });
  }

  async connectNode(name: string, _all: readonly PeerInfo[]): Promise<void> {
    const c = await this.requireContainer(name, 'connect');
    if (!(await this.isDisconnected(name))) return;
    await this.d
      .getNetwork(this.p2pNetwork)
      .connect({ Container: c.id, EndpointConfig: { Aliases: [name] } });
  }

  /**
   * Each node's blocked_peers.json (the peers its group keeps apart, or none), written in its home
   * on the host and copied into its volume, where the node reads it twice a second.
   */
  async partition(groups: Groups | null, all: readonly PeerInfo[]): Promise<void> {
    for (const me of all) {
      const info = await this.inspect(me.name);
      if (info === null) continue;
      const home = this.layout.nodeHome(me.name);
      await writeBlockedPeers(
        home,
        refusedBy(me.name, all, new Set(), groups).map((p) => p.peerId),
      );
      await this.d
        .getContainer(info.Id)
        .putArchive(tar.pack(home, { entries: [BLOCKED_PEERS_FILE] }), { path: '/data' });
    }
  }

  async isDisconnected(name: string): Promise<boolean> {
    const info = await this.inspect(name);
    return info !== null && info.NetworkSettings.Networks[this.p2pNetwork] === undefined;
  }

  async nodeState(name: string): Promise<NodeRunState> {
    const info = await this.inspect(name);
    if (info === null) return 'absent';
    if (info.State.Paused) return 'paused';
    return info.State.Running ? 'running' : 'stopped';
  }

  async logs(name: string, o: LogOptions, out: Writable): Promise<void> {
    const c = await this.requireContainer(name, 'show the logs of');
    const tail = o.tail === null ? {} : { tail: o.tail };
    if (!o.follow) {
      const buf = await c.logs({ stdout: true, stderr: true, follow: false, ...tail });
      out.write(demux(buf));
      return;
    }
    const stream = (await c.logs({
      stdout: true,
      stderr: true,
      follow: true,
      ...tail,
    })) as NodeJS.ReadableStream & {
      destroy(): void;
    };
    this.d.modem.demuxStream(stream, out, out);
    await new Promise<void>((resolve) => {
      stream.on('end', resolve);
      o.signal?.addEventListener('abort', () => {
        stream.destroy();
        resolve();
      });
    });
  }

  async startMonitoring(
    spec: NetworkSpec,
    nodes: readonly NodeSpec[],
    progress: Progress,
  ): Promise<MonitoringEndpoints> {
    const notes: string[] = [];
    const dir = this.layout.monitoringDir;
    await mkdir(dir, { recursive: true });
    const config = renderPrometheusConfig(
      nodes.map((n) => ({ name: n.name, address: `${this.name(n.name)}:${RPC_PORT}` })),
      {
        scrapeInterval: '1s',
        services:
          spec.marketPort === null
            ? []
            : [{ job: MARKET_JOB, address: `${this.name(MARKET_SERVICE_NAME)}:${spec.marketPort}` }],
      },
    );
    await writeFile(join(dir, 'prometheus.yml'), config);
    const prometheusUrl = `http://127.0.0.1:${spec.monitoringPorts.prometheus}`;
    const existing = await this.inspect('prometheus');
    if (existing !== null) {
      // A node joined: the new configuration goes in and Prometheus reloads it.
      const c = this.d.getContainer(existing.Id);
      await c.putArchive(prometheusConfigArchive(dir), { path: '/etc' });
      await fetch(`${prometheusUrl}/-/reload`, { method: 'POST', signal: AbortSignal.timeout(5_000) }).catch(
        () => undefined,
      );
      return {
        prometheus: prometheusUrl,
        grafana:
          (await this.inspect('grafana')) === null
            ? null
            : `http://127.0.0.1:${spec.monitoringPorts.grafana}`,
        notes,
      };
    }
    const image = await ensureImage(
      PROMETHEUS_IMAGE,
      'chain-devnet/prometheus-local:host',
      async () => {
        const bin = '/usr/bin/prometheus';
        await buildHostImage(
          'chain-devnet/prometheus-local:host',
          [{ source: bin, target: '/bin/prometheus' }],
          [],
          'ENTRYPOINT ["/bin/prometheus"]\n',
        );
      },
      progress,
    ).catch((e: unknown) => {
      notes.push(
        `Prometheus skipped: no ${PROMETHEUS_IMAGE} image (pull failed) and no prometheus binary on this host to make one (${(e as Error).message.split('\n')[0]})`,
      );
      return null;
    });
    if (image === null) return { prometheus: null, grafana: null, notes };
    // Made here with the devnet's labels: a volume the engine makes for a bind has none, and
    // `down` (which finds what to remove by label) left it behind.
    await this.d.createVolume({ Name: this.name('prometheus'), Labels: this.labels('prometheus') });
    const prom = await this.d.createContainer({
      name: this.name('prometheus'),
      Image: image,
      Cmd: [
        '--config.file=/etc/prometheus/prometheus.yml',
        '--storage.tsdb.path=/prometheus',
        '--web.listen-address=0.0.0.0:9090',
        '--web.enable-lifecycle',
      ],
      Labels: this.labels('prometheus'),
      ExposedPorts: { '9090/tcp': {} },
      HostConfig: {
        NetworkMode: this.portsNetwork,
        Binds: [`${this.name('prometheus')}:/prometheus`],
        PortBindings: {
          '9090/tcp': [{ HostIp: '127.0.0.1', HostPort: String(spec.monitoringPorts.prometheus) }],
        },
      },
    });
    await this.d
      .getNetwork(this.p2pNetwork)
      .connect({ Container: prom.id, EndpointConfig: { Aliases: ['prometheus'] } });
    await prom.putArchive(prometheusConfigArchive(dir), { path: '/etc' });
    await prom.start();
    progress(`prometheus: ${prometheusUrl}`);

    let grafana: string | null = null;
    let grafanaImage = (await imageExists(GRAFANA_IMAGE)) ? GRAFANA_IMAGE : null;
    if (grafanaImage === null) {
      progress(`pulling ${GRAFANA_IMAGE}`);
      const pulled = await tryPull(GRAFANA_IMAGE);
      if (pulled.ok) grafanaImage = GRAFANA_IMAGE;
      else
        notes.push(
          `Grafana skipped: cannot pull ${GRAFANA_IMAGE} (${pulled.reason}); the dashboards are in dashboards/`,
        );
    }
    if (grafanaImage !== null) {
      const g = await this.d.createContainer({
        name: this.name('grafana'),
        Image: grafanaImage,
        Labels: this.labels('grafana'),
        Env: [
          `PROMETHEUS_URL=http://${this.name('prometheus')}:9090`,
          'GF_AUTH_ANONYMOUS_ENABLED=true',
          'GF_AUTH_ANONYMOUS_ORG_ROLE=Viewer',
        ],
        ExposedPorts: { '3000/tcp': {} },
        HostConfig: {
          NetworkMode: this.portsNetwork,
          PortBindings: {
            '3000/tcp': [{ HostIp: '127.0.0.1', HostPort: String(spec.monitoringPorts.grafana) }],
          },
        },
      });
      await this.d
        .getNetwork(this.p2pNetwork)
        .connect({ Container: g.id, EndpointConfig: { Aliases: ['grafana'] } });
      await g.putArchive(tar.pack(repoPath('dashboards', 'provisioning')), {
        path: '/etc/grafana/provisioning',
      });
      await g.putArchive(tar.pack(repoPath('dashboards', 'json')), { path: '/var/lib/grafana/dashboards' });
      await g.start();
      grafana = `http://127.0.0.1:${spec.monitoringPorts.grafana}`;
      progress(`grafana: ${grafana}`);
    }
    return { prometheus: prometheusUrl, grafana, notes };
  }

  async teardown(keepData: boolean): Promise<string[]> {
    const removed: string[] = [];
    const filters = { label: [`${LABEL_DEVNET}=${this.layout.id}`] };
    const containers = await this.d.listContainers({ all: true, filters });
    await Promise.all(
      containers.map(async (c) => {
        await this.d.getContainer(c.Id).remove({ force: true, v: false });
        removed.push(`container ${c.Names[0]?.replace(/^\//, '') ?? c.Id}`);
      }),
    );
    for (const n of await this.d.listNetworks({ filters })) {
      await this.d.getNetwork(n.Id).remove();
      removed.push(`network ${n.Name}`);
    }
    if (!keepData) {
      const { Volumes } = await this.d.listVolumes({ filters });
      for (const v of Volumes ?? []) {
        await this.d.getVolume(v.Name).remove();
        removed.push(`volume ${v.Name}`);
      }
      await rm(this.layout.home, { recursive: true, force: true });
      removed.push(`folder ${this.layout.home}`);
    }
    return removed;
  }
}

/** prometheus/prometheus.yml, to unpack in /etc (the folder may not exist in a minimal image). */
function prometheusConfigArchive(dir: string) {
  return tar.pack(dir, {
    entries: ['prometheus.yml'],
    map: (header) => ({ ...header, name: `prometheus/${header.name}` }),
  });
}

/** Docker's multiplexed log format (8-byte frame headers) to plain bytes. */
function demux(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  while (i + 8 <= buf.length) {
    const size = buf.readUInt32BE(i + 4);
    parts.push(buf.subarray(i + 8, i + 8 + size));
    i += 8 + size;
  }
  return Buffer.concat(parts);
}
