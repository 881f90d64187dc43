/**
 * The swarm runtime: a devnet on a Docker Swarm of one or many machines, driven through the
 * manager's engine (dockerode). Per devnet one attachable overlay network devnet-<id>; per node
 * one service devnet-<id>-<node>:
 *   - one replica, restart policy `none`: a node that is killed (or crashes) stays down until
 *     `start`. stop scales the service to 0 (SIGTERM, SIGKILL after 10 s), start scales it to 1
 *     or, when the replica is there but its task ended (killed), forces a new task;
 *   - endpoint mode dnsrr (a virtual IP answered EHOSTUNREACH across engines here): its service
 *     name resolves to its task's address on the overlay, and nodes dial each other by it;
 *   - its RPC port published in host mode on the machine that runs it (on all of that machine's
 *     addresses: swarm publishing binds no single address); p2p is not published;
 *   - pinned (placement constraint node.id==…) to the machine it first ran on, where its volume
 *     devnet-<id>-<node> holds its data; genesis and node.json as swarm configs, its keys as
 *     swarm secrets, mounted into that volume's folder.
 * Services beside the nodes (the task market and its worker, `--market`) are services of the
 * node image running chain-market, pinned to the manager like Prometheus and Grafana.
 * kill, pause, resume, disconnect/connect and partition (which copy the nodes' blocked-peers
 * lists into their containers) go to the engine of the machine running the task (swarmEngines.ts); logs come
 * from the manager (service logs). Everything carries the devnet's labels; `down` removes the
 * services, then on every machine the containers they left, the volumes and the images it
 * loaded, then configs, secrets and the network.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { waitFor } from '@chain-devnet/node/harness';
import { CONTAINER_PORTS, nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import type Docker from 'dockerode';
import tar from 'tar-fs';
import { DevnetError } from '../../errors.js';
import type { Layout } from '../../layout.js';
import {
  MARKET_JOB,
  MARKET_SERVICE_NAME,
  renderSwarmPrometheusConfig,
} from '../../monitoring/prometheusConfig.js';
import { dashboardsPath } from '../../repo.js';
import type { NetworkSpec, NodeSpec } from '../../spec/networkSpec.js';
import { BLOCKED_PEERS_FILE, BlockedPeers } from '../blockedPeers.js';
import { docker } from '../docker/engine.js';
import { devnetFilter, devnetLabels, devnetName, LABEL_DEVNET, LABEL_NODE } from '../docker/labels.js';
import { demux, followLogs } from '../docker/logStream.js';
import { grafanaImage, prometheusImage } from '../docker/monitorImages.js';
import { SERVICE_ENTRYPOINT, serviceArgsInContainer } from '../docker/serviceInImage.js';
import { CONTAINER_HOME, nodeStartArgs } from '../nodeCommand.js';
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
import { chooseMachine } from './placement.js';
import { type Machine, SwarmMachines } from './swarmEngines.js';
import { type NodeImagePlan, provideNodeImage, type RegistryAuth, readLoaded } from './swarmImages.js';

/** Tells Prometheus's swarm discovery which services are nodes, and where they serve /metrics. */
const LABEL_METRICS_PORT = 'io.chain-devnet.metrics-port';
const RPC_PORT = CONTAINER_PORTS.rpcPort;
const STOP_GRACE_MS = 10_000;
/** A task that ended and cannot come back: these states are final. */
const ENDED = new Set(['complete', 'shutdown', 'failed', 'rejected', 'remove', 'orphaned']);
/**
 * How long a task may stay pending with the scheduler's reason (no machine fits it) before start
 * fails with that reason; well inside a caller's command timeout, stop's wait included.
 */
const UNSCHEDULABLE_MS = 30_000;
/** How long a service may show no task for the replica asked for before one is forced (and then failed). */
const NO_TASK_MS = 10_000;

/** A service spec changed so that the swarm replaces its task (as `docker service update --force`). */
function forceNewTask(spec: Docker.ServiceSpec): void {
  if (spec.TaskTemplate !== undefined)
    spec.TaskTemplate.ForceUpdate = (spec.TaskTemplate.ForceUpdate ?? 0) + 1;
}

/** Services are DNS names on the overlay network: at most 63 characters. */
const MAX_SERVICE_NAME = 63;

export interface SwarmSettings {
  /** Where the node image is pushed and pulled from; null: loaded into each machine's engine. */
  readonly registry: string | null;
  /** Engine addresses by machine name or id (the manifest's `engines`). */
  readonly engines: Readonly<Record<string, string>>;
}

interface TaskInfo {
  ID: string;
  NodeID?: string;
  CreatedAt?: string;
  DesiredState?: string;
  Status?: { State?: string; Err?: string; Message?: string; ContainerStatus?: { ContainerID?: string } };
}

function isNotFound(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 404;
}

function isConflict(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 409;
}

/** A named volume, made with these labels by the engine of the machine where the task first starts. */
function volumeMount(source: string, target: string, labels: Record<string, string>): Docker.MountSettings {
  const options = { Labels: labels } as NonNullable<Docker.MountSettings['VolumeOptions']>;
  return { Type: 'volume', Source: source, Target: target, VolumeOptions: options };
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 12);

export class SwarmRuntime implements Runtime {
  readonly kind = 'swarm' as const;
  private machinesLoaded: Promise<SwarmMachines> | null = null;
  private imagePlan: Promise<NodeImagePlan> | null = null;
  private readonly blocked: BlockedPeers;

  constructor(
    private readonly layout: Layout,
    private readonly settings: SwarmSettings,
  ) {
    this.blocked = new BlockedPeers(layout, (name) => this.copyBlockedList(name));
  }

  private get d(): Docker {
    return docker();
  }

  private name(what?: string): string {
    return devnetName(this.layout, what);
  }

  private labels(node?: string): Record<string, string> {
    return devnetLabels(this.layout, node);
  }

  private machines(): Promise<SwarmMachines> {
    this.machinesLoaded ??= SwarmMachines.load(this.settings.engines);
    return this.machinesLoaded;
  }

  /** The manager devnet talks to: services and monitors are pinned to it. */
  private async manager(): Promise<Machine> {
    return (await this.machines()).all.find((m) => m.local)!;
  }

  private image(progress: Progress): Promise<NodeImagePlan> {
    this.imagePlan ??= this.machines().then((m) =>
      provideNodeImage(this.layout, m, this.settings.registry, progress),
    );
    return this.imagePlan;
  }

  async prepare(progress: Progress): Promise<void> {
    const machines = await this.machines();
    progress(
      `runtime: Docker Swarm, ${machines.all.length} machine${machines.all.length === 1 ? '' : 's'}: ${machines.all
        .map(
          (m) =>
            `${m.name} (${[m.local ? 'the manager devnet talks to' : m.manager ? 'manager' : 'worker', m.ready ? null : 'not ready', m.engine === null ? 'no engine address' : m.engine === 'manager' ? null : `engine ${m.engine}`].filter((x) => x !== null).join(', ')})`,
        )
        .join(', ')}`,
    );
    await this.image(progress);
    await this.ensureNetwork();
  }

  private async ensureNetwork(): Promise<void> {
    try {
      await this.d.getNetwork(this.name()).inspect();
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.d.createNetwork({
        Name: this.name(),
        Driver: 'overlay',
        // Attachable: a container started by hand on any machine can join it (a debugging shell, a probe).
        Attachable: true,
        CheckDuplicate: true,
        Labels: this.labels(),
      });
    }
  }

  private async service(name: string): Promise<Docker.Service | null> {
    try {
      return (await this.d.getService(this.name(name)).inspect()) as Docker.Service;
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  private async requireService(name: string, what: string): Promise<Docker.Service> {
    const s = await this.service(name);
    if (s === null) throw new DevnetError('UNKNOWN_NODE', `${name} has no service: cannot ${what} it`);
    return s;
  }

  /** The service's tasks, newest first. */
  private async tasks(name: string): Promise<TaskInfo[]> {
    const tasks = (await this.d.listTasks({ filters: { service: [this.name(name)] } })) as TaskInfo[];
    return tasks.sort((a, b) => (b.CreatedAt ?? '').localeCompare(a.CreatedAt ?? ''));
  }

  /** The task whose container runs now, if any. */
  private async runningTask(name: string): Promise<TaskInfo | null> {
    return (await this.tasks(name)).find((t) => t.Status?.State === 'running') ?? null;
  }

  /** The container of a running task, through the engine of its machine. */
  private async taskContainer(
    name: string,
    what: string,
  ): Promise<{ container: Docker.Container; machine: Machine } | null> {
    const t = await this.runningTask(name);
    const id = t?.Status?.ContainerStatus?.ContainerID;
    if (t === null || id === undefined || t.NodeID === undefined) return null;
    const machines = await this.machines();
    const machine = machines.byId(t.NodeID);
    return { container: machines.engine(machine, what).getContainer(id), machine };
  }

  private async requireContainer(name: string, what: string): Promise<Docker.Container> {
    const c = await this.taskContainer(name, `${what} ${name}`);
    if (c === null) throw new DevnetError('UNKNOWN_NODE', `${name} is not running: cannot ${what} it`);
    return c.container;
  }

  /**
   * Waits until a new task of the service (none of `earlier`) runs; fails with the swarm's reason
   * when it cannot: a task that ended before it ran, or one the scheduler keeps pending with a
   * reason (no machine fits it: its host-mode port taken there, …) for UNSCHEDULABLE_MS. A pending
   * task is never failed by the swarm itself, so without that bound a start would wait the whole
   * `timeoutMs` and the caller's own timeout would end it first, without the reason.
   */
  private async waitRunning(name: string, earlier: ReadonlySet<string>, timeoutMs = 180_000): Promise<void> {
    let seen = 'no task yet';
    let unschedulableSince: number | null = null;
    let asked = Date.now();
    let forced = false;
    const outcome = await waitFor(
      `the task of ${this.name(name)} to run`,
      timeoutMs,
      async () => {
        const [newest] = (await this.tasks(name)).filter((t) => !earlier.has(t.ID));
        if (newest === undefined) {
          if (Date.now() - asked < NO_TASK_MS) return false;
          if (forced) return 'no task';
          // The swarm made no task for the replica asked for: a new one, by force.
          forced = true;
          asked = Date.now();
          const s = await this.service(name);
          if (s !== null) await this.update(s, (spec) => forceNewTask(spec));
          return false;
        }
        const state = newest.Status?.State ?? '?';
        seen = `${state}${newest.Status?.Err ? `: ${newest.Status.Err}` : ''}`;
        if (state === 'running') return 'running';
        // Ended before it ran (a port taken on its machine, no image there…): it will not run.
        if (ENDED.has(state)) return 'ended';
        if (state === 'pending' && newest.Status?.Err) {
          unschedulableSince ??= Date.now();
          if (Date.now() - unschedulableSince >= UNSCHEDULABLE_MS) return 'unschedulable';
        } else unschedulableSince = null;
        return false;
      },
      { pollMs: 250, seen: () => seen },
    );
    if (outcome === 'running') return;
    const how =
      outcome === 'ended'
        ? 'did not start on the swarm'
        : outcome === 'no task'
          ? `got no task from the swarm in ${(2 * NO_TASK_MS) / 1000} s, one forced`
          : `stayed unscheduled ${UNSCHEDULABLE_MS / 1000} s`;
    throw new DevnetError(
      /address already in use|port is already allocated|host-mode port/.test(seen)
        ? 'PORT_TAKEN'
        : 'NODE_START',
      `${name} ${how}: ${seen} (docker service ps --no-trunc ${this.name(name)})`,
    );
  }

  /**
   * Waits until no task of the service is running, on its way to, or being removed (scaled to 0,
   * a task stays listed with desired state `remove` after it ended, until the swarm deletes it).
   * A scale back to 1 before then made no task at all, and none ever came (restart condition
   * none: the swarm does not refill the slot): `devnet restart` waited for its command timeout.
   */
  private async waitDown(name: string, timeoutMs: number): Promise<void> {
    let seen = '';
    await waitFor(
      `${this.name(name)} to have no running task`,
      timeoutMs,
      async () => {
        const live = (await this.tasks(name)).filter(
          (t) => !ENDED.has(t.Status?.State ?? '') || t.DesiredState === 'remove',
        );
        seen = live.map((t) => `${t.Status?.State} (desired ${t.DesiredState})`).join(', ');
        return live.length === 0;
      },
      { pollMs: 200, seen: () => seen },
    );
  }

  /** A config or secret, made once under a name derived from its content (both are immutable). */
  private async swarmFile(
    kind: 'config' | 'secret',
    what: string,
    data: Buffer,
    node?: string,
  ): Promise<{ id: string; name: string }> {
    const name = this.name(`${what}-${sha(Buffer.concat([Buffer.from(`${node ?? ''}\0`), data]))}`);
    const spec = { Name: name, Labels: this.labels(node), Data: data.toString('base64') };
    try {
      const made = (await (kind === 'config' ? this.d.createConfig(spec) : this.d.createSecret(spec))) as {
        id?: string;
        ID?: string;
      };
      return { id: made.id ?? made.ID ?? '', name };
    } catch (e) {
      if (!isConflict(e)) throw e;
      const found = (await (kind === 'config'
        ? this.d.getConfig(name)
        : this.d.getSecret(name)
      ).inspect()) as {
        ID: string;
      };
      return { id: found.ID, name };
    }
  }

  private async createNodeService(l: NodeLaunch, progress: Progress): Promise<Machine> {
    const name = l.node.name;
    const service = this.name(name);
    if (service.length > MAX_SERVICE_NAME)
      throw new DevnetError(
        'BAD_FLAG',
        `${name}: the swarm runtime names its service ${service}, longer than the ${MAX_SERVICE_NAME} characters a swarm allows: use a name of at most ${MAX_SERVICE_NAME - this.name('').length} characters`,
      );
    const plan = await this.image(progress);
    const machines = await this.machines();
    const machine = chooseMachine(
      { index: l.node.index, name, asked: l.placement },
      machines.all,
      plan.usable,
      plan.why,
    );
    // Peers by service name: with dnsrr it resolves to the task's address on the overlay.
    await writeNodeFile(
      l.home,
      nodeFileOf(l.node, l.peers, { containers: true, dnsName: (n) => this.name(n) }),
    );
    const read = (f: string) => readFile(join(l.home, f));
    const [genesis, nodeFile, validatorKey, p2pKey] = await Promise.all([
      this.swarmFile('config', 'genesis', await read('genesis.json')),
      this.swarmFile('config', 'node', await read('node.json'), name),
      this.swarmFile('secret', 'validator-key', await read('validator_key.json'), name),
      this.swarmFile('secret', 'p2p-key', await read('p2p_key'), name),
    ]);
    const file = (target: string, mode: number) => ({
      Name: `${CONTAINER_HOME}/${target}`,
      UID: '0',
      GID: '0',
      Mode: mode,
    });
    await this.createService({
      what: name,
      container: {
        Image: plan.ref,
        Args: nodeStartArgs(l.node, 'container'),
        Hostname: name,
        // The machine's engine makes the volume when the first task starts, with these labels.
        Mounts: [volumeMount(this.name(name), CONTAINER_HOME, this.labels(name))],
        Configs: [
          { File: file('genesis.json', 0o444), ConfigID: genesis.id, ConfigName: genesis.name },
          { File: file('node.json', 0o444), ConfigID: nodeFile.id, ConfigName: nodeFile.name },
        ],
        Secrets: [
          {
            File: file('validator_key.json', 0o400),
            SecretID: validatorKey.id,
            SecretName: validatorKey.name,
          },
          { File: file('p2p_key', 0o400), SecretID: p2pKey.id, SecretName: p2pKey.name },
        ],
        StopSignal: 'SIGTERM',
        StopGracePeriod: STOP_GRACE_MS * 1e6,
      },
      // A killed or crashed node stays down until `devnet start`, as on the other runtimes.
      restart: 'none',
      // Its volume (its data) is on this machine: it always runs here.
      machine,
      port: { target: RPC_PORT, published: l.node.rpcPort },
      labels: { [LABEL_METRICS_PORT]: String(RPC_PORT) },
      auth: plan.auth,
    });
    return machine;
  }

  /** Replaces the service's spec (the swarm checks it against the version read). */
  private async update(s: Docker.Service, change: (spec: Docker.ServiceSpec) => void): Promise<void> {
    const spec = structuredClone(s.Spec!) as Docker.ServiceSpec;
    change(spec);
    await this.d.getService(s.ID).update({ _query: { version: s.Version?.Index }, _body: spec } as never);
  }

  async startNode(l: NodeLaunch): Promise<void> {
    const name = l.node.name;
    const s = await this.service(name);
    if (s === null) {
      await this.createNodeService(l, () => undefined);
      await this.waitRunning(name, new Set());
      return;
    }
    if ((await this.runningTask(name)) !== null) {
      // Running: at most paused (which only its machine's engine knows and undoes).
      const c = await this.taskContainer(name, `start ${name}`).catch(() => null);
      if (c !== null && (await c.container.inspect()).State.Paused) await c.container.unpause();
      return;
    }
    await this.bringUp(name, s);
    // Its blocked-peers list may have changed while it was down.
    await this.copyBlockedList(name);
  }

  /** A new task for a service that has none running (stopped: scaled to 0; killed: its task ended). */
  private async bringUp(name: string, s: Docker.Service): Promise<void> {
    const earlier = new Set((await this.tasks(name)).map((t) => t.ID));
    await this.update(s, (spec) => {
      const mode = spec.Mode?.Replicated;
      if (mode !== undefined && mode.Replicas === 0) mode.Replicas = 1;
      // The replica is there but its task ended (killed): a new task, on the same machine.
      else forceNewTask(spec);
    });
    try {
      await this.waitRunning(name, earlier);
    } catch (e) {
      // Undone: a task left pending would take the node up later, unasked, once its machine fits it.
      const now = await this.service(name);
      if (now !== null)
        await this.update(now, (spec) => {
          spec.Mode = { Replicated: { Replicas: 0 } };
        });
      throw e;
    }
  }

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    const s = await this.service(node.name);
    const pinned = /^node\.id==(\S+)$/.exec(
      (s?.Spec?.TaskTemplate as Docker.ContainerTaskSpec | undefined)?.Placement?.Constraints?.[0] ?? '',
    )?.[1];
    if (s === null || pinned === undefined)
      return {
        rpc: `http://127.0.0.1:${node.rpcPort}`,
        machine: null,
        published: 'nothing: the node has no service',
      };
    const m = (await this.machines()).byId(pinned);
    return {
      rpc: `http://${m.host}:${node.rpcPort}`,
      machine: m.name,
      published: `RPC ${node.rpcPort} on every address of ${m.name} (swarm host-mode publishing binds no single address); p2p on the devnet's overlay network only`,
    };
  }

  async stopNode(name: string): Promise<void> {
    const s = await this.service(name);
    if (s === null) return;
    const running = await this.taskContainer(name, `stop ${name}`).catch(() => null);
    // A frozen container cannot act on SIGTERM.
    if (running !== null && (await running.container.inspect()).State.Paused)
      await running.container.unpause();
    if (s.Spec?.Mode?.Replicated?.Replicas !== 0)
      await this.update(s, (spec) => {
        spec.Mode = { Replicated: { Replicas: 0 } };
      });
    await this.waitDown(name, STOP_GRACE_MS + 30_000);
  }

  async killNode(name: string): Promise<void> {
    const c = await this.requireContainer(name, 'kill');
    await c.kill({ signal: 'SIGKILL' });
    await this.waitDown(name, 30_000);
  }

  async pauseNode(name: string): Promise<void> {
    await (await this.requireContainer(name, 'pause')).pause();
  }

  async resumeNode(name: string): Promise<void> {
    await (await this.requireContainer(name, 'resume')).unpause();
  }

  /** Copies the node's blocked-peers list into its running container (a node that is down gets it when it starts). */
  private async copyBlockedList(name: string): Promise<void> {
    // No list was ever written for it: nothing to copy.
    if (!existsSync(this.blocked.file(name))) return;
    const c = await this.taskContainer(name, `change the peers ${name} talks to`);
    if (c === null) return;
    await c.container.putArchive(tar.pack(this.layout.nodeHome(name), { entries: [BLOCKED_PEERS_FILE] }), {
      path: CONTAINER_HOME,
    });
  }

  async disconnectNode(name: string, all: readonly PeerInfo[]): Promise<void> {
    await this.requireService(name, 'disconnect');
    await this.blocked.disconnect(name, all);
  }

  async connectNode(name: string, all: readonly PeerInfo[]): Promise<void> {
    await this.requireService(name, 'connect');
    await this.blocked.connect(name, all);
  }

  async isDisconnected(name: string): Promise<boolean> {
    return this.blocked.isDisconnected(name);
  }

  async partition(groups: Groups | null, all: readonly PeerInfo[]): Promise<void> {
    await this.blocked.partition(groups, all);
  }

  async nodeState(name: string): Promise<NodeRunState> {
    if ((await this.service(name)) === null) return 'absent';
    const t = await this.runningTask(name);
    if (t === null) return 'stopped';
    // Paused is known only to the machine's engine; without one, a paused node shows as running.
    const c = await this.taskContainer(name, 'see whether it is paused').catch(() => null);
    if (c === null) return 'running';
    return (await c.container.inspect()).State.Paused ? 'paused' : 'running';
  }

  /**
   * From the manager (service logs: every task's, the current one's and those before a restart),
   * so no engine address is needed. --tail N is the last N lines over all of them, by time.
   */
  async logs(name: string, o: LogOptions, out: Writable): Promise<void> {
    await this.requireService(name, 'show the logs of');
    const service = this.d.getService(this.name(name));
    if (o.follow) {
      const stream = (await service.logs({
        stdout: true,
        stderr: true,
        follow: true,
        ...(o.tail === null ? {} : { tail: o.tail }),
      })) as unknown as NodeJS.ReadableStream & { destroy(): void };
      await followLogs(this.d.modem, stream, out, o.signal);
      return;
    }
    const raw = (await service.logs({
      stdout: true,
      stderr: true,
      follow: false,
      timestamps: true,
      ...(o.tail === null ? {} : { tail: o.tail }),
    })) as unknown as Buffer;
    const lines = demux(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const space = line.indexOf(' ');
        return { at: line.slice(0, space), text: line.slice(space + 1) };
      })
      // Stable: lines of one task keep their order.
      .sort((a, b) => a.at.localeCompare(b.at));
    const kept = o.tail === null ? lines : lines.slice(Math.max(0, lines.length - o.tail));
    out.write(kept.map((l) => `${l.text}\n`).join(''));
  }

  /**
   * A service beside the nodes (the task market, its worker) is a swarm service of the node image
   * running chain-market, on the devnet's overlay network (it reaches the nodes by their service
   * names), pinned to the manager as the monitors are: its volume stays there, and its port is
   * published there, where devnet reaches it. The files of its home (its key) are swarm secrets
   * in the volume's folder. Restart policy none, as a node's: a killed service stays down.
   */
  /** Services are pinned to the manager devnet talks to, which publishes their ports. */
  async serviceUrl(port: number): Promise<string> {
    return `http://${(await this.manager()).host}:${port}`;
  }

  async startService(s: ServiceLaunch): Promise<void> {
    const existing = await this.service(s.name);
    if (existing !== null) {
      if ((await this.runningTask(s.name)) === null) await this.bringUp(s.name, existing);
      return;
    }
    const plan = await this.image(() => undefined);
    const manager = await this.manager();
    const files = (await readdir(s.home, { withFileTypes: true })).filter((f) => f.isFile());
    const secrets = await Promise.all(
      files.map(async (f) => {
        const secret = await this.swarmFile(
          'secret',
          'service-file',
          await readFile(join(s.home, f.name)),
          s.name,
        );
        return {
          File: { Name: `${CONTAINER_HOME}/${f.name}`, UID: '0', GID: '0', Mode: 0o400 },
          SecretID: secret.id,
          SecretName: secret.name,
        };
      }),
    );
    await this.createService({
      what: s.name,
      container: {
        Image: plan.ref,
        Command: [...SERVICE_ENTRYPOINT],
        Args: serviceArgsInContainer(s, this.layout),
        Hostname: s.name,
        Mounts: [volumeMount(this.name(s.name), CONTAINER_HOME, this.labels(s.name))],
        Secrets: secrets,
        StopSignal: 'SIGTERM',
        StopGracePeriod: STOP_GRACE_MS * 1e6,
      },
      restart: 'none',
      machine: manager,
      port: s.port === null ? null : { target: s.port, published: s.port },
      auth: plan.auth,
    });
    await this.waitRunning(s.name, new Set());
  }

  async startMonitoring(
    spec: NetworkSpec,
    _nodes: readonly NodeSpec[],
    progress: Progress,
  ): Promise<MonitoringEndpoints> {
    const manager = await this.manager();
    const where = `published on every address of ${manager.name}`;
    const notes = [
      `ports on the swarm: each node's RPC on every address of the machine running it, Prometheus and Grafana on every address of ${manager.name}; p2p on the devnet's overlay network only`,
    ];
    const prometheusUrl = `http://${manager.host}:${spec.monitoringPorts.prometheus}`;
    const grafanaUrl = `http://${manager.host}:${spec.monitoringPorts.grafana}`;
    // Prometheus finds nodes that join later by itself: nothing to do for them.
    if ((await this.service('prometheus')) !== null)
      return {
        prometheus: prometheusUrl,
        grafana: (await this.service('grafana')) === null ? null : grafanaUrl,
        notes,
      };
    const found = await prometheusImage(progress);
    if ('note' in found) return { prometheus: null, grafana: null, notes: [...notes, found.note] };
    const config = renderSwarmPrometheusConfig(
      {
        // Prometheus runs on the manager and asks its engine for the swarm's tasks.
        dockerHost: 'unix:///var/run/docker.sock',
        devnetLabel: { name: LABEL_DEVNET, value: this.layout.id },
        nodeLabel: LABEL_NODE,
        portLabel: LABEL_METRICS_PORT,
        network: this.name(),
      },
      {
        scrapeInterval: '1s',
        services:
          spec.marketPort === null
            ? []
            : [{ job: MARKET_JOB, address: `${this.name(MARKET_SERVICE_NAME)}:${spec.marketPort}` }],
      },
    );
    await mkdir(this.layout.monitoringDir, { recursive: true });
    await writeFile(join(this.layout.monitoringDir, 'prometheus.yml'), config);
    const configFile = await this.swarmFile('config', 'prometheus', Buffer.from(config));
    // Monitors run on the manager (their data, and the engine Prometheus asks, are there) and
    // come back when they fail.
    await this.createService({
      what: 'prometheus',
      machine: manager,
      restart: 'on-failure',
      container: {
        Image: found.image,
        Args: [
          '--config.file=/etc/prometheus/prometheus.yml',
          '--storage.tsdb.path=/prometheus',
          '--web.listen-address=0.0.0.0:9090',
          '--web.enable-lifecycle',
        ],
        // The engine's socket is root's: the official image's user `nobody` could not read it.
        User: '0',
        Mounts: [
          volumeMount(this.name('prometheus'), '/prometheus', this.labels('prometheus')),
          { Type: 'bind', Source: '/var/run/docker.sock', Target: '/var/run/docker.sock', ReadOnly: true },
        ],
        Configs: [
          {
            File: { Name: '/etc/prometheus/prometheus.yml', UID: '0', GID: '0', Mode: 0o444 },
            ConfigID: configFile.id,
            ConfigName: configFile.name,
          },
        ],
      },
      port: { target: 9090, published: spec.monitoringPorts.prometheus },
    });
    await this.waitRunning('prometheus', new Set());
    progress(`prometheus: ${prometheusUrl} (${where})`);

    const g = await grafanaImage(progress);
    if ('note' in g) return { prometheus: prometheusUrl, grafana: null, notes: [...notes, g.note] };
    const provisioning = dashboardsPath('provisioning');
    const dashboards = dashboardsPath('json');
    const files: { source: string; target: string }[] = [
      {
        source: join(provisioning, 'datasources', 'prometheus.yml'),
        target: '/etc/grafana/provisioning/datasources/prometheus.yml',
      },
      {
        source: join(provisioning, 'dashboards', 'chain.yml'),
        target: '/etc/grafana/provisioning/dashboards/chain.yml',
      },
      ...(await readdir(dashboards))
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ source: join(dashboards, f), target: `/var/lib/grafana/dashboards/${f}` })),
    ];
    const configs = await Promise.all(
      files.map(async (f) => {
        const c = await this.swarmFile('config', 'grafana', await readFile(f.source));
        return {
          File: { Name: f.target, UID: '0', GID: '0', Mode: 0o444 },
          ConfigID: c.id,
          ConfigName: c.name,
        };
      }),
    );
    await this.createService({
      what: 'grafana',
      machine: manager,
      restart: 'on-failure',
      container: {
        Image: g.image,
        Env: [
          `PROMETHEUS_URL=http://${this.name('prometheus')}:9090`,
          'GF_AUTH_ANONYMOUS_ENABLED=true',
          'GF_AUTH_ANONYMOUS_ORG_ROLE=Viewer',
        ],
        Configs: configs,
      },
      port: { target: 3000, published: spec.monitoringPorts.grafana },
    });
    await this.waitRunning('grafana', new Set());
    progress(`grafana: ${grafanaUrl} (${where})`);
    return { prometheus: prometheusUrl, grafana: grafanaUrl, notes };
  }

  /**
   * A service of one replica pinned to `machine`, on the devnet's overlay network (where its name
   * resolves to its task's address: dnsrr), its port published in host mode on that machine.
   */
  private async createService(o: {
    readonly what: string;
    readonly container: Docker.ContainerSpec;
    readonly restart: 'none' | 'on-failure';
    readonly machine: Machine;
    /** Published in host mode on `machine`; null: nothing published. */
    readonly port: { readonly target: number; readonly published: number } | null;
    readonly labels?: Record<string, string>;
    readonly auth?: RegistryAuth | undefined;
  }): Promise<void> {
    await this.d.createService({
      ...(o.auth === undefined ? {} : { authconfig: o.auth }),
      Name: this.name(o.what),
      Labels: { ...this.labels(o.what), ...o.labels },
      TaskTemplate: {
        ContainerSpec: { ...o.container, Labels: this.labels(o.what) },
        RestartPolicy: { Condition: o.restart },
        Placement: { Constraints: [`node.id==${o.machine.id}`] },
        Networks: [{ Target: this.name(), Aliases: [o.what] }],
      },
      Mode: { Replicated: { Replicas: 1 } },
      EndpointSpec: {
        Mode: 'dnsrr',
        Ports:
          o.port === null
            ? []
            : [
                {
                  Protocol: 'tcp',
                  TargetPort: o.port.target,
                  PublishedPort: o.port.published,
                  PublishMode: 'host',
                },
              ],
      },
    } as Docker.CreateServiceOptions);
  }

  async teardown(keepData: boolean): Promise<string[]> {
    const removed: string[] = [];
    const left: string[] = [];
    const filters = devnetFilter(this.layout);
    const services = (await this.d.listServices({ filters })) as Docker.Service[];
    for (const s of services) {
      await this.d.getService(s.ID).remove();
      removed.push(`service ${s.Spec?.Name ?? s.ID}`);
    }
    const machines = await this.machines().catch(() => null);
    // On each machine: the containers the services' tasks leave (the swarm removes them on its
    // own, a moment later; volumes in use cannot go), then the volumes and the images loaded.
    const loaded = await readLoaded(this.layout);
    const stillUsed = await this.imagesOfOtherDevnets();
    for (const m of machines?.all ?? []) {
      if (!machines!.hasEngine(m)) {
        left.push(`machine ${m.name}: its volumes and containers (no engine address to reach it)`);
        continue;
      }
      const engine = machines!.engine(m, 'clean up');
      try {
        await this.removeContainers(engine, filters);
        if (!keepData) {
          const { Volumes } = await engine.listVolumes({ filters });
          for (const v of Volumes ?? []) {
            await engine.getVolume(v.Name).remove();
            removed.push(`volume ${v.Name} on ${m.name}`);
          }
        }
        for (const l of loaded.filter((x) => x.machine === m.id)) {
          if (stillUsed.has(l.image)) {
            left.push(`image ${l.image} on ${m.name} (another devnet's services run it)`);
            continue;
          }
          // A container the swarm is still taking away holds the image a moment longer (a
          // fresh-clone CI run found the image left on a worker): retried while in use.
          await waitFor(`image ${l.image} on ${m.name} to be removable`, 30_000, async () => {
            try {
              await engine.getImage(l.image).remove();
              return true;
            } catch (e) {
              if (isNotFound(e)) return true;
              if (isConflict(e)) return false;
              throw e;
            }
          });
          removed.push(`image ${l.image} on ${m.name} (loaded by this devnet)`);
        }
      } catch (e) {
        left.push(`on ${m.name}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    for (const c of (await this.d.listConfigs({ filters })) as { ID: string; Spec?: { Name?: string } }[]) {
      await this.d.getConfig(c.ID).remove();
      removed.push(`config ${c.Spec?.Name ?? c.ID}`);
    }
    for (const s of (await this.d.listSecrets({ filters })) as { ID: string; Spec?: { Name?: string } }[]) {
      await this.d.getSecret(s.ID).remove();
      removed.push(`secret ${s.Spec?.Name ?? s.ID}`);
    }
    for (const n of await this.d.listNetworks({ filters })) {
      // An overlay network goes once no task is attached to it on any machine.
      await waitFor(`network ${n.Name} to be removable`, 30_000, async () => {
        try {
          await this.d.getNetwork(n.Id).remove();
          return true;
        } catch (e) {
          if (isNotFound(e)) return true;
          if (isConflict(e) || /active endpoints/.test((e as Error).message)) return false;
          throw e;
        }
      });
      removed.push(`network ${n.Name}`);
    }
    if (!keepData) {
      await rm(this.layout.home, { recursive: true, force: true });
      removed.push(`folder ${this.layout.home}`);
    }
    if (left.length > 0) removed.push(...left.map((l) => `NOT removed: ${l}`));
    return removed;
  }

  /** Waits for the swarm to remove the tasks' containers on one machine, then removes any still there. */
  private async removeContainers(engine: Docker, filters: { label: string[] }): Promise<void> {
    const gone = await waitFor(
      "the tasks' containers to go",
      20_000,
      async () => (await engine.listContainers({ all: true, filters })).length === 0,
    ).then(
      () => true,
      () => false,
    );
    if (gone) return;
    for (const c of await engine.listContainers({ all: true, filters }))
      await engine
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch((e: unknown) => {
          if (!isNotFound(e)) throw e;
        });
  }

  /** Images the services of other devnets on this swarm run (an image loaded here may serve them too). */
  private async imagesOfOtherDevnets(): Promise<Set<string>> {
    const all = (await this.d.listServices({ filters: { label: [LABEL_DEVNET] } })) as Docker.Service[];
    const images = new Set<string>();
    for (const s of all) {
      if (s.Spec?.Labels?.[LABEL_DEVNET] === this.layout.id) continue;
      const image = (s.Spec?.TaskTemplate as Docker.ContainerTaskSpec | undefined)?.ContainerSpec?.Image;
      if (image !== undefined) images.add(image.split('@')[0]!);
    }
    return images;
  }
}
