/**
 * A node (or service) of the docker runtime: its container devnet-<id>-<name>, found again by
 * name. Pause is the engine's own pause; a node cut off also leaves the p2p network (cutOff),
 * beside its blocked-peers list, which is copied into its volume, where the node reads it. A
 * container replaced by `devnet upgrade` leaves its last lines in the node's log file, which
 * `logs` shows before the current container's (earlierRuns.ts).
 */
import type { Writable } from 'node:stream';
import { CONTAINER_PORTS, nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import type Docker from 'dockerode';
import tar from 'tar-fs';
import type { NodeSpec } from '../../spec/networkSpec.js';
import type { DiskBackend, FillOp } from '../dataDisk.js';
import { EARLIER_RUN_LINES, keepEarlierRun, writeEarlier } from '../earlierRuns.js';
import { localEndpoint } from '../localEndpoint.js';
import { CONTAINER_HOME, nodeStartArgs } from '../nodeCommand.js';
import type { LogOptions, NodeEndpoint, NodeHandle, NodeLaunch, NodeRunState } from '../runtime.js';
import { dataTmpfsMount, fillInContainer, hasDataTmpfs } from './containerExec.js';
import type { DockerDevnet } from './containers.js';
import { pauseFrozen } from './engineErrors.js';
import { VERSION_LABEL } from './labels.js';
import { demux, followLogs } from './logStream.js';
import { pullVolume } from './volumeArchive.js';

const RPC_PORT = CONTAINER_PORTS.rpcPort;
const P2P_PORT = CONTAINER_PORTS.p2pPort;

export class DockerNode implements NodeHandle {
  constructor(
    private readonly dd: DockerDevnet,
    readonly name: string,
  ) {}

  async start(l: NodeLaunch): Promise<void> {
    const { dd, name } = this;
    const info = await dd.inspect(name);
    if (info !== null) {
      const c = dd.d.getContainer(info.Id);
      if (info.State.Paused) await c.unpause();
      else if (!info.State.Running) await c.start();
      return;
    }
    // Peers by container name on the devnet's p2p network (each container also has its node's name as an alias).
    await writeNodeFile(
      l.home,
      nodeFileOf(l.node, l.peers, { containers: true, dnsName: (n) => dd.name(n) }),
    );
    const volume = dd.name(name);
    await dd.d.createVolume({ Name: volume, Labels: dd.labels(name) });
    // The node's home (genesis, keys, node.json) goes into its volume before the first start.
    await dd.joinAndStart(await this.create(l), name, l.home);
  }

  /** A container of the launch's image on the node's volume (made, not started). */
  private async create(l: NodeLaunch): Promise<Docker.Container> {
    const { dd, name } = this;
    const image = await dd.imageOf(l.build);
    const volume = dd.name(name);
    return dd.d.createContainer({
      name: dd.name(name),
      Hostname: name,
      Image: image,
      Cmd: nodeStartArgs(l.node, 'container'),
      Labels: { ...dd.labels(name), [VERSION_LABEL]: l.build.version },
      ExposedPorts: { [`${RPC_PORT}/tcp`]: {}, [`${P2P_PORT}/tcp`]: {} },
      HostConfig: {
        NetworkMode: dd.portsNetwork,
        Binds: [`${volume}:${CONTAINER_HOME}`],
        // Its store on a tmpfs of its own size (dataDisk.ts); it lives while the container runs.
        ...(l.node.diskBytes === null ? {} : { Mounts: [dataTmpfsMount(l.node.diskBytes)] }),
        PortBindings: {
          [`${RPC_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(l.node.rpcPort) }],
          [`${P2P_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(l.node.p2pPort) }],
        },
        // SIGTERM first, SIGKILL after 10 s, as the process runtime.
        Init: false,
      },
      StopTimeout: 10,
    });
  }

  /**
   * Stopped gracefully, its container removed and made again from the launch's image on the same
   * volume (its data, its home and blocked-peers list stay there), on the p2p network unless it
   * was cut off, and started.
   */
  async replace(l: NodeLaunch): Promise<void> {
    const { dd, name } = this;
    const info = await dd.inspect(name);
    if (info === null) return this.start(l);
    // Made (built, pulled) before the old one stops: the node is down for the swap only.
    await dd.imageOf(l.build);
    await this.stop();
    const cut = info.NetworkSettings.Networks[dd.p2pNetwork] === undefined;
    const old = dd.d.getContainer(info.Id);
    // Its log goes with it: its last lines (a halt's 'UPGRADE NEEDED' line) and exit code are kept.
    const lines = await old.logs({ stdout: true, stderr: true, follow: false, tail: EARLIER_RUN_LINES });
    const ended = (await old.inspect()).State.ExitCode;
    await keepEarlierRun(dd.layout.logFile(name), demux(lines), name, ended, l.build.version);
    await old.remove();
    const c = await this.create(l);
    if (cut) await c.start();
    else await dd.joinAndStart(c, name, null);
  }

  async exitCode(): Promise<number | null> {
    const info = await this.dd.inspect(this.name);
    if (info === null || info.State.Running || info.State.Paused) return null;
    return info.State.ExitCode;
  }

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    return localEndpoint(node);
  }

  async stop(): Promise<void> {
    const info = await this.dd.inspect(this.name);
    if (info === null || !info.State.Running) return;
    const c = this.dd.d.getContainer(info.Id);
    if (info.State.Paused) await c.unpause();
    await c.stop({ t: 10 });
  }

  async kill(): Promise<void> {
    const c = await this.dd.requireContainer(this.name, 'kill');
    await c.kill({ signal: 'SIGKILL' });
    await c.wait({ condition: 'not-running' });
  }

  async pause(): Promise<void> {
    const c = await this.dd.requireContainer(this.name, 'pause');
    await pauseFrozen(() => c.pause());
  }

  async resume(): Promise<void> {
    await (await this.dd.requireContainer(this.name, 'resume')).unpause();
  }

  async state(): Promise<NodeRunState> {
    const info = await this.dd.inspect(this.name);
    if (info === null) return 'absent';
    if (info.State.Paused) return 'paused';
    return info.State.Running ? 'running' : 'stopped';
  }

  /** The earlier containers' kept lines (replace), then this container's; --tail N over both. */
  async logs(o: LogOptions, out: Writable): Promise<void> {
    const c = await this.dd.requireContainer(this.name, 'show the logs of');
    const tail = o.tail === null ? {} : { tail: o.tail };
    const current = demux(await c.logs({ stdout: true, stderr: true, follow: false, ...tail }));
    await writeEarlier(this.dd.layout.logFile(this.name), current, o.tail, out);
    if (!o.follow) {
      out.write(current);
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
    await followLogs(this.dd.d.modem, stream, out, o.signal);
  }

  /** Copies the file into its volume (one without a container is skipped). */
  async copyHomeFile(home: string, file: string): Promise<void> {
    const info = await this.dd.inspect(this.name);
    if (info === null) return;
    await this.dd.d
      .getContainer(info.Id)
      .putArchive(tar.pack(home, { entries: [file] }), { path: CONTAINER_HOME });
  }

  /** Its volume's /data, read through the engine (a tar stream), into `home` (a stopped container too). */
  async pullHome(home: string): Promise<void> {
    await pullVolume(await this.dd.requireContainer(this.name, 'save'), home);
  }

  /**
   * Off the p2p network too: there a stranger could still reach the node some other way (a
   * published port, another network), so the blocked-peers list says what is cut whatever the
   * engine does, and the engine's detach makes the cut immediate.
   */
  async cutOff(cut: boolean): Promise<void> {
    const c = await this.dd.requireContainer(this.name, cut ? 'disconnect' : 'connect');
    const info = await c.inspect();
    const attached = info.NetworkSettings.Networks[this.dd.p2pNetwork] !== undefined;
    if (cut && attached)
      await this.dd.d.getNetwork(this.dd.p2pNetwork).disconnect({ Container: c.id, Force: true });
    else if (!cut && !attached) await this.dd.attach(c, this.name);
  }

  async diskBackend(): Promise<DiskBackend> {
    const info = await this.dd.inspect(this.name);
    return hasDataTmpfs(info?.HostConfig.Mounts) ? 'tmpfs' : 'layer';
  }

  async fillDisk(op: FillOp): Promise<boolean> {
    const info = await this.dd.inspect(this.name);
    if (info === null || !info.State.Running || !hasDataTmpfs(info.HostConfig.Mounts)) return false;
    return fillInContainer(this.dd.d.getContainer(info.Id), op);
  }
}
