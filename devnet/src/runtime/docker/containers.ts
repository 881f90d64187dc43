/**
 * What the docker runtime's provider and node handles share: the devnet's names on the engine
 * (its two networks, its containers), finding a container again by its name, and starting a new
 * one on the p2p network with its home copied into its volume.
 */
import type Docker from 'dockerode';
import tar from 'tar-fs';
import { DevnetError } from '../../errors.js';
import type { Layout } from '../../layout.js';
import type { Progress } from '../runtime.js';
import { docker } from './engine.js';
import { orNull } from './engineErrors.js';
import { devnetLabels, devnetName } from './labels.js';
import { ensureNodeImage } from './nodeImage.js';

export class DockerDevnet {
  private image: Promise<string> | null = null;

  constructor(readonly layout: Layout) {}

  /** The node image (built once per command; a failed build is tried again next time). */
  nodeImage(progress: Progress = () => undefined): Promise<string> {
    this.image ??= ensureNodeImage(progress).catch((e: unknown) => {
      this.image = null;
      throw e;
    });
    return this.image;
  }

  get d(): Docker {
    return docker();
  }

  /** devnet-<id>-<what>: a container's and its volume's name. */
  name(what: string): string {
    return devnetName(this.layout, what);
  }

  /** Where nodes find each other by name. */
  get p2pNetwork(): string {
    return devnetName(this.layout);
  }

  /** Carries only the ports published on 127.0.0.1 (no traffic between containers on it). */
  get portsNetwork(): string {
    return devnetName(this.layout, 'ports');
  }

  labels(node?: string): Record<string, string> {
    return devnetLabels(this.layout, node);
  }

  inspect(name: string): Promise<Docker.ContainerInspectInfo | null> {
    return orNull(this.d.getContainer(this.name(name)).inspect());
  }

  async requireContainer(name: string, what: string): Promise<Docker.Container> {
    const info = await this.inspect(name);
    if (info === null) throw new DevnetError('UNKNOWN_NODE', `${name} has no container: cannot ${what} it`);
    return this.d.getContainer(info.Id);
  }

  /** Joins the p2p network under its name (an alias beside the container's own name). */
  async attach(c: Docker.Container | string, name: string): Promise<void> {
    const id = typeof c === 'string' ? c : c.id;
    await this.d.getNetwork(this.p2pNetwork).connect({ Container: id, EndpointConfig: { Aliases: [name] } });
  }

  /** A new container on the p2p network under its name, its home in /data, started. */
  async joinAndStart(c: Docker.Container, name: string, home: string): Promise<void> {
    await this.attach(c, name);
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
}
