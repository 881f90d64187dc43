/**
 * The swarm runtime: a devnet on a Docker Swarm of one or many machines, driven through the
 * manager's engine (dockerode). Per devnet one attachable overlay network devnet-<id>; per node
 * one service devnet-<id>-<node> (services.ts, nodeHandle.ts) on the machine the manifest or the
 * runtime chooses (placement.ts), its RPC port published there; p2p is not published. Services
 * beside the nodes (the task market and its worker, the monitors) are services pinned to the
 * manager devnet talks to: their volumes stay there, and their ports are published there, where
 * devnet reaches them. Everything carries the devnet's labels; `down` removes it (teardown.ts).
 */
import type Docker from 'dockerode';
import type { Layout } from '../../base/layout.js';
import { isNotFound } from '../docker/engineErrors.js';
import { LABEL_DEVNET, LABEL_NODE } from '../docker/labels.js';
import { containerReach, programImage, SERVICE_USER } from '../docker/serviceInImage.js';
import { CONTAINER_HOME } from '../nodeCommand.js';
import type {
  Capabilities,
  NodeHandle,
  Progress,
  Runtime,
  ServiceLaunch,
  ServiceReach,
  ServiceSkipped,
} from '../runtime.js';
import { SwarmNode } from './nodeHandle.js';
import { createService, LABEL_METRICS_PORT, volumeMount } from './services.js';
import { STOP_GRACE_MS, SwarmDevnet, type SwarmSettings } from './swarmDevnet.js';
import { homeSecrets } from './swarmFiles.js';
import { mountedFiles, seedVolume } from './swarmVolumes.js';
import { bringUp, waitRunning } from './tasks.js';
import { teardownSwarm } from './teardown.js';

export type { SwarmSettings };

/** The engine's socket on the manager, where Prometheus asks for the swarm's tasks (discovery). */
const MANAGER_SOCKET = '/var/run/docker.sock';

export class SwarmRuntime implements Runtime {
  readonly kind = 'swarm' as const;
  private readonly sd: SwarmDevnet;

  constructor(
    private readonly layout: Layout,
    settings: SwarmSettings,
  ) {
    this.sd = new SwarmDevnet(layout, settings);
  }

  capabilities(): Capabilities {
    return {
      machines: true,
      discovery: {
        // Prometheus runs on the manager and asks its engine for the swarm's tasks.
        dockerHost: `unix://${MANAGER_SOCKET}`,
        devnetLabel: { name: LABEL_DEVNET, value: this.layout.id },
        nodeLabel: LABEL_NODE,
        portLabel: LABEL_METRICS_PORT,
        network: this.sd.name(),
      },
    };
  }

  async prepare(progress: Progress): Promise<void> {
    const machines = await this.sd.machines();
    progress(
      `runtime: Docker Swarm, ${machines.all.length} machine${machines.all.length === 1 ? '' : 's'}: ${machines.all
        .map(
          (m) =>
            `${m.name} (${[m.local ? 'the manager devnet talks to' : m.manager ? 'manager' : 'worker', m.ready ? null : 'not ready', m.engine === null ? 'no engine address' : m.engine === 'manager' ? null : `engine ${m.engine}`].filter((x) => x !== null).join(', ')})`,
        )
        .join(', ')}`,
    );
    await this.sd.image(progress);
    await this.ensureNetwork();
  }

  private async ensureNetwork(): Promise<void> {
    try {
      await this.sd.d.getNetwork(this.sd.name()).inspect();
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.sd.d.createNetwork({
        Name: this.sd.name(),
        Driver: 'overlay',
        // Attachable: a container started by hand on any machine can join it (a debugging shell, a probe).
        Attachable: true,
        CheckDuplicate: true,
        Labels: this.sd.labels(),
      });
    }
  }

  node(name: string): NodeHandle {
    return new SwarmNode(this.sd, name);
  }

  serviceReach(): ServiceReach {
    return containerReach(this.layout);
  }

  /** Services are pinned to the manager devnet talks to, which publishes their ports. */
  async serviceUrl(port: number): Promise<string> {
    return `http://${(await this.sd.manager()).host}:${port}`;
  }

  async servicesPublishedOn(): Promise<string> {
    return `every address of ${(await this.sd.manager()).name}`;
  }

  /**
   * A service beside the nodes is a swarm service of its program's image on the devnet's overlay
   * network (it reaches the nodes by their service names), pinned to the manager. The files of its
   * home are swarm secrets in its volume's folder, but for its store (data/, there when restored
   * from an archive), which goes into its volume. A market's restart policy is none, as a node's
   * (a killed service stays down); the monitors come back when they fail.
   */
  async startService(s: ServiceLaunch, progress: Progress): Promise<ServiceSkipped> {
    const sd = this.sd;
    const existing = await sd.service(s.name);
    if (existing !== null) {
      if ((await sd.runningTask(s.name)) === null) await bringUp(sd, s.name, existing);
      return null;
    }
    const plan = await sd.image(() => undefined);
    const program = await programImage(s.program, async () => plan.ref, progress);
    if ('note' in program) return program.note;
    const reach = this.serviceReach();
    const container: Docker.ContainerSpec = {
      Image: program.image,
      ...(program.entrypoint === null ? {} : { Command: [...program.entrypoint] }),
      Args: s.args(reach),
      Env: Object.entries(s.env?.(reach) ?? {}).map(([k, v]) => `${k}=${v}`),
      Hostname: s.name,
      // Root: the engine's socket (Prometheus's discovery) is root's, and so are the secrets.
      User: SERVICE_USER,
      Mounts: [
        volumeMount(sd.name(s.name), CONTAINER_HOME, sd.labels(s.name)),
        ...(s.program === 'prometheus'
          ? [{ Type: 'bind' as const, Source: MANAGER_SOCKET, Target: MANAGER_SOCKET, ReadOnly: true }]
          : []),
      ],
      Secrets: await homeSecrets(sd, s.name, s.home),
      StopSignal: 'SIGTERM',
      StopGracePeriod: STOP_GRACE_MS * 1e6,
    };
    // Restored from an archive: its store (data/) into its volume on the manager first.
    await seedVolume(sd, await sd.manager(), program.image, s.name, s.home, mountedFiles(container));
    await createService(sd, {
      what: s.name,
      container,
      restart: s.program === 'chain-market' ? 'none' : 'on-failure',
      machine: await sd.manager(),
      port: s.port === null ? null : { target: s.port, published: s.port },
      // The node image may come from a registry; a monitor's image is the engine's own.
      ...(s.program === 'chain-market' ? { auth: plan.auth } : {}),
    });
    await waitRunning(sd, s.name, new Set());
    return null;
  }

  teardown(keepData: boolean): Promise<string[]> {
    return teardownSwarm(this.sd, keepData);
  }
}
