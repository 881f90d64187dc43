/**
 * The docker runtime (dockerode). Per devnet: a p2p bridge network where nodes find each other by
 * name, a second bridge network with inter-container traffic off that only carries the ports
 * published on 127.0.0.1 (so a node cut off the p2p network keeps its RPC), and per node one
 * container and one volume (/data). Everything carries the labels io.chain-devnet.devnet=<id>
 * and io.chain-devnet.home=<home>, which is how later commands and `down` find it. Pause is the
 * engine's own pause; disconnect is the engine's network disconnect plus the node's fault
 * injection refusing every peer; a partition is each node's blocked-peers file (the node's fault
 * injection), copied into its volume.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { CONTAINER_PORTS, nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import type Docker from 'dockerode';
import tar from 'tar-fs';
import { DevnetError } from '../../errors.js';
import type { Layout } from '../../layout.js';
import {
  MARKET_JOB,
  MARKET_SERVICE_NAME,
  renderPrometheusConfig,
} from '../../monitoring/prometheusConfig.js';
import { dashboardsPath } from '../../repo.js';
import type { NetworkSpec, NodeSpec } from '../../spec/networkSpec.js';
import { BLOCKED_PEERS_FILE, BlockedPeers } from '../blockedPeers.js';
import { localEndpoint, localServiceUrl } from '../localEndpoint.js';
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
import { docker } from './engine.js';
import { devnetFilter, devnetLabels, devnetName } from './labels.js';
import { demux, followLogs } from './logStream.js';
import { grafanaImage, prometheusImage } from './monitorImages.js';
import { ensureNodeImage } from './nodeImage.js';
import { SERVICE_ENTRYPOINT, serviceArgsInContainer } from './serviceInImage.js';

const RPC_PORT = CONTAINER_PORTS.rpcPort;
const P2P_PORT = CONTAINER_PORTS.p2pPort;

function isNotFound(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 404;
}

export class DockerRuntime implements Runtime {
  readonly kind = 'docker' as const;
  private nodeImage: string | null = null;

  private readonly blocked: BlockedPeers;

  constructor(private readonly layout: Layout) {
    this.blocked = new BlockedPeers(layout, (name) => this.copyBlockedList(name));
  }

  private get d(): Docker {
    return docker();
  }

  private name(what: string): string {
    return devnetName(this.layout, what);
  }

  private get p2pNetwork(): string {
    return devnetName(this.layout);
  }

  private get portsNetwork(): string {
    return devnetName(this.layout, 'ports');
  }

  private labels(node?: string): Record<string, string> {
    return devnetLabels(this.layout, node);
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
      Cmd: nodeStartArgs(l.node, 'container'),
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

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    return localEndpoint(node);
  }

  /**
   * A service is a container of the node image running chain-market instead of chain-node, on
   * both networks (it reaches the nodes by name on the p2p network), its home in a volume.
   */
  async serviceUrl(port: number): Promise<string> {
    return localServiceUrl(port);
  }

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
      Entrypoint: [...SERVICE_ENTRYPOINT],
      Cmd: serviceArgsInContainer(s, this.layout),
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

  /**
   * The engine's network disconnect, and the node's fault injection refusing every peer (its
   * blocked-peers file, copied into its volume): off the p2p network a stranger could still reach
   * the node some other way (a published port, another network), and the file says what is cut
   * whatever the engine does.
   */
  async disconnectNode(name: string, all: readonly PeerInfo[]): Promise<void> {
    const c = await this.requireContainer(name, 'disconnect');
    await this.blocked.disconnect(name, all);
    if (await this.isDisconnected(name)) return;
    await this.d.getNetwork(this.p2pNetwork).disconnect({ Container: c.id, Force: true });
  }

  async connectNode(name: string, all: readonly PeerInfo[]): Promise<void> {
    const c = await this.requireContainer(name, 'connect');
    await this.blocked.connect(name, all);
    if (!(await this.isDisconnected(name))) return;
    await this.d
      .getNetwork(this.p2pNetwork)
      .connect({ Container: c.id, EndpointConfig: { Aliases: [name] } });
  }

  /**
   * Each node's blocked_peers.json (partition.ts: what the partition and the nodes cut off mean for
   * it), written in its home on the host and copied into its volume, where the node reads it twice
   * a second.
   */
  async partition(groups: Groups | null, all: readonly PeerInfo[]): Promise<void> {
    await this.blocked.partition(groups, all);
  }

  /** Copies a node's list from its home on the host into its volume (a node without a container is skipped). */
  private async copyBlockedList(name: string): Promise<void> {
    const info = await this.inspect(name);
    if (info === null) return;
    await this.d
      .getContainer(info.Id)
      .putArchive(tar.pack(this.layout.nodeHome(name), { entries: [BLOCKED_PEERS_FILE] }), { path: '/data' });
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
    await followLogs(this.d.modem, stream, out, o.signal);
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
    const promImage = await prometheusImage(progress);
    if ('note' in promImage) return { prometheus: null, grafana: null, notes: [...notes, promImage.note] };
    const image = promImage.image;
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
    const grafanaFound = await grafanaImage(progress);
    if ('note' in grafanaFound) notes.push(grafanaFound.note);
    else {
      const g = await this.d.createContainer({
        name: this.name('grafana'),
        Image: grafanaFound.image,
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
      await g.putArchive(tar.pack(dashboardsPath('provisioning')), {
        path: '/etc/grafana/provisioning',
      });
      await g.putArchive(tar.pack(dashboardsPath('json')), { path: '/var/lib/grafana/dashboards' });
      await g.start();
      grafana = `http://127.0.0.1:${spec.monitoringPorts.grafana}`;
      progress(`grafana: ${grafana}`);
    }
    return { prometheus: prometheusUrl, grafana, notes };
  }

  async teardown(keepData: boolean): Promise<string[]> {
    const removed: string[] = [];
    const filters = devnetFilter(this.layout);
    const containers = await this.d.listContainers({ all: true, filters });
    await Promise.all(
      containers.map(async (c) => {
        // v: the anonymous volumes an image's VOLUME made go with the container (named ones never do).
        await this.d.getContainer(c.Id).remove({ force: true, v: true });
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
