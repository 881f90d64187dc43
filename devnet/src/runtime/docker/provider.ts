/**
 * The docker runtime (dockerode). Per devnet: a p2p bridge network where nodes find each other by
 * name, a second bridge network with inter-container traffic off that only carries the ports
 * published on 127.0.0.1 (so a node cut off the p2p network keeps its RPC), and per node or
 * service one container and one volume (/data) (nodeHandle.ts). Everything carries the labels
 * io.chain-devnet.devnet=<id> and io.chain-devnet.home=<home>, which is how later commands and
 * `down` find it (teardown.ts).
 */

import type { Layout } from '../../base/layout.js';
import { localServiceUrl } from '../localEndpoint.js';
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
import { DockerDevnet } from './containers.js';
import { isNotFound } from './engineErrors.js';
import { DockerNode } from './nodeHandle.js';
import { containerReach, programImage, SERVICE_USER } from './serviceInImage.js';
import { teardownContainers } from './teardown.js';

export class DockerRuntime implements Runtime {
  readonly kind = 'docker' as const;
  private readonly dd: DockerDevnet;

  constructor(private readonly layout: Layout) {
    this.dd = new DockerDevnet(layout);
  }

  capabilities(): Capabilities {
    return { machines: false, discovery: null };
  }

  async prepare(progress: Progress): Promise<void> {
    progress('runtime: Docker');
    await this.dd.nodeImage(progress);
    await this.ensureNetwork(this.dd.p2pNetwork, {});
    // No traffic between containers here: this network only carries the published ports.
    await this.ensureNetwork(this.dd.portsNetwork, { 'com.docker.network.bridge.enable_icc': 'false' });
  }

  private async ensureNetwork(name: string, options: Record<string, string>): Promise<void> {
    try {
      await this.dd.d.getNetwork(name).inspect();
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.dd.d.createNetwork({
        Name: name,
        Driver: 'bridge',
        Labels: this.dd.labels(),
        Options: options,
      });
    }
  }

  node(name: string): NodeHandle {
    return new DockerNode(this.dd, name);
  }

  serviceReach(): ServiceReach {
    return containerReach(this.layout);
  }

  async serviceUrl(port: number): Promise<string> {
    return localServiceUrl(port);
  }

  async servicesPublishedOn(): Promise<null> {
    return null;
  }

  /**
   * A service is a container of its program's image on both networks (it reaches the nodes by
   * name on the p2p network), its home in a volume, its port published on 127.0.0.1.
   */
  async startService(s: ServiceLaunch, progress: Progress): Promise<ServiceSkipped> {
    const dd = this.dd;
    const info = await dd.inspect(s.name);
    if (info !== null) {
      if (!info.State.Running) await dd.d.getContainer(info.Id).start();
      return null;
    }
    const program = await programImage(s.program, () => dd.nodeImage(), progress);
    if ('note' in program) return program.note;
    const reach = this.serviceReach();
    // Made here with the devnet's labels: a volume the engine makes for a bind has none, and
    // `down` (which finds what to remove by label) would leave it behind.
    const volume = dd.name(s.name);
    await dd.d.createVolume({ Name: volume, Labels: dd.labels(s.name) });
    const port = s.port === null ? null : `${s.port}/tcp`;
    const c = await dd.d.createContainer({
      name: dd.name(s.name),
      Hostname: s.name,
      Image: program.image,
      ...(program.entrypoint === null ? {} : { Entrypoint: [...program.entrypoint] }),
      Cmd: s.args(reach),
      Env: Object.entries(s.env?.(reach) ?? {}).map(([k, v]) => `${k}=${v}`),
      User: SERVICE_USER,
      Labels: dd.labels(s.name),
      ExposedPorts: port === null ? {} : { [port]: {} },
      HostConfig: {
        NetworkMode: dd.portsNetwork,
        Binds: [`${volume}:${CONTAINER_HOME}`],
        PortBindings: port === null ? {} : { [port]: [{ HostIp: '127.0.0.1', HostPort: String(s.port) }] },
      },
      StopTimeout: 10,
    });
    await dd.joinAndStart(c, s.name, s.home);
    return null;
  }

  teardown(keepData: boolean): Promise<string[]> {
    return teardownContainers(this.dd.d, this.layout, keepData);
  }
}
