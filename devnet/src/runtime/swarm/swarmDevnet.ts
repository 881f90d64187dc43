/**
 * What the swarm runtime's provider, node handles, services and teardown share: the devnet's
 * names and labels, its machines (swarmEngines.ts) and node image (swarmImages.ts), loaded once
 * per command, and finding a service, its tasks and the container of its running task again.
 */
import type Docker from 'dockerode';
import { DevnetError } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';
import { CHECKOUT_VERSION } from '../../versions/source.js';
import { imageOfBuild } from '../docker/containers.js';
import { docker } from '../docker/engine.js';
import { orNull } from '../docker/engineErrors.js';
import { devnetLabels, devnetName } from '../docker/labels.js';
import type { NodeBuild, Progress } from '../runtime.js';
import { type Machine, SwarmMachines } from './swarmEngines.js';
import { type NodeImagePlan, provideNodeImage } from './swarmImages.js';

export interface SwarmSettings {
  /** Where the node image is pushed and pulled from; null: loaded into each machine's engine. */
  readonly registry: string | null;
  /** Engine addresses by machine name or id (the manifest's `engines`). */
  readonly engines: Readonly<Record<string, string>>;
}

export interface TaskInfo {
  ID: string;
  ServiceID?: string;
  NodeID?: string;
  CreatedAt?: string;
  DesiredState?: string;
  Status?: {
    State?: string;
    Err?: string;
    Message?: string;
    ContainerStatus?: { ContainerID?: string; ExitCode?: number };
    /** The ports its container publishes in host mode, once it runs. */
    PortStatus?: { Ports?: { PublishedPort?: number; PublishMode?: string }[] };
  };
}

/** How long a node has to stop on SIGTERM before SIGKILL, as on the other runtimes. */
export const STOP_GRACE_MS = 10_000;

export class SwarmDevnet {
  private machinesLoaded: Promise<SwarmMachines> | null = null;
  /** Each version's image on the machines, by the version's written form (once per command). */
  private readonly imagePlans = new Map<string, Promise<NodeImagePlan>>();
  /** The images this command runs: an older-image clean-up after a build leaves them. */
  private readonly usedImages = new Set<string>();

  constructor(
    readonly layout: Layout,
    private readonly settings: SwarmSettings,
  ) {}

  get d(): Docker {
    return docker();
  }

  name(what?: string): string {
    return devnetName(this.layout, what);
  }

  labels(node?: string): Record<string, string> {
    return devnetLabels(this.layout, node);
  }

  machines(): Promise<SwarmMachines> {
    this.machinesLoaded ??= SwarmMachines.load(this.settings.engines);
    return this.machinesLoaded;
  }

  /** The manager devnet talks to: services and monitors are pinned to it. */
  async manager(): Promise<Machine> {
    return (await this.machines()).all.find((m) => m.local)!;
  }

  /** The image of a node of `build` (this checkout's by default), on every machine that can run nodes. */
  image(
    progress: Progress,
    build: NodeBuild = { kind: 'checkout', version: CHECKOUT_VERSION },
  ): Promise<NodeImagePlan> {
    let plan = this.imagePlans.get(build.version);
    if (plan === undefined) {
      plan = this.machines().then(async (m) => {
        const tag = await imageOfBuild(build, progress, this.usedImages);
        this.usedImages.add(tag);
        return provideNodeImage(this.layout, m, this.settings.registry, progress, tag);
      });
      plan.catch(() => this.imagePlans.delete(build.version));
      this.imagePlans.set(build.version, plan);
    }
    return plan;
  }

  service(name: string): Promise<Docker.Service | null> {
    return orNull(this.d.getService(this.name(name)).inspect() as Promise<Docker.Service>);
  }

  async requireService(name: string, what: string): Promise<Docker.Service> {
    const s = await this.service(name);
    if (s === null) throw new DevnetError('UNKNOWN_NODE', `${name} has no service: cannot ${what} it`);
    return s;
  }

  /** The service's tasks, newest first. */
  async tasks(name: string): Promise<TaskInfo[]> {
    // A service not made yet has no tasks: the engine answers 404 for its name, which a node's
    // home file copied before its first start (its network conditions) must not fail on.
    const listed = await orNull(this.d.listTasks({ filters: { service: [this.name(name)] } }));
    const tasks = (listed ?? []) as TaskInfo[];
    return tasks.sort((a, b) => (b.CreatedAt ?? '').localeCompare(a.CreatedAt ?? ''));
  }

  /** The task whose container runs now, if any. */
  async runningTask(name: string): Promise<TaskInfo | null> {
    return (await this.tasks(name)).find((t) => t.Status?.State === 'running') ?? null;
  }

  /** The container of a running task, through the engine of its machine. */
  async taskContainer(
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

  async requireContainer(name: string, what: string): Promise<Docker.Container> {
    const c = await this.taskContainer(name, `${what} ${name}`);
    if (c === null) throw new DevnetError('UNKNOWN_NODE', `${name} is not running: cannot ${what} it`);
    return c.container;
  }

  /** Replaces the service's spec (the swarm checks it against the version read). */
  async update(s: Docker.Service, change: (spec: Docker.ServiceSpec) => void): Promise<void> {
    const spec = structuredClone(s.Spec!) as Docker.ServiceSpec;
    change(spec);
    await this.d.getService(s.ID).update({ _query: { version: s.Version?.Index }, _body: spec } as never);
  }
}
