/**
 * What the docker runtime's provider and node handles share: the devnet's names on the engine
 * (its two networks, its containers), finding a container again by its name, and starting a new
 * one on the p2p network with its home copied into its volume.
 */
import type Docker from 'dockerode';
import tar from 'tar-fs';
import { DevnetError } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';
import { CHECKOUT_VERSION } from '../../versions/source.js';
import type { NodeBuild, Progress } from '../runtime.js';
import { docker } from './engine.js';
import { orNull } from './engineErrors.js';
import { imageExists, tryPull } from './images.js';
import { devnetLabels, devnetName } from './labels.js';
import { ensureNodeImage } from './nodeImage.js';

/** The image of a node's build: made from a built checkout, or an image named by the version. */
export async function imageOfBuild(
  build: NodeBuild,
  progress: Progress,
  protect: ReadonlySet<string>,
): Promise<string> {
  if (build.kind === 'checkout') return ensureNodeImage(progress, undefined, protect);
  if (build.kind === 'built') return ensureNodeImage(progress, build.root, protect);
  if (await imageExists(build.image)) return build.image;
  progress(`pulling ${build.image} (${build.version})`);
  const pulled = await tryPull(build.image);
  if (!pulled.ok)
    throw new DevnetError(
      'BAD_VERSION',
      `${build.version}: the image ${build.image} is not on the Docker engine and cannot be pulled (${pulled.reason}): build or load it first`,
    );
  return build.image;
}

export class DockerDevnet {
  /** The node image of each version, by its written form (built once per command; a failure is tried again). */
  private readonly images = new Map<string, Promise<string>>();
  /** The images this command runs: an older-image clean-up after a build leaves them. */
  private readonly used = new Set<string>();

  constructor(readonly layout: Layout) {}

  /** The node image of this checkout (the default version). */
  nodeImage(progress: Progress = () => undefined): Promise<string> {
    return this.imageOf({ kind: 'checkout', version: CHECKOUT_VERSION }, progress);
  }

  /**
   * The image a node of `build` runs: a build's (this checkout's or another's) made from it
   * (nodeImage.ts), or the image named, which must be on the engine or pulled.
   */
  imageOf(build: NodeBuild, progress: Progress = () => undefined): Promise<string> {
    let image = this.images.get(build.version);
    if (image === undefined) {
      image = imageOfBuild(build, progress, this.used).then((tag) => {
        this.used.add(tag);
        return tag;
      });
      image.catch(() => this.images.delete(build.version));
      this.images.set(build.version, image);
    }
    return image;
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

  /** A new container on the p2p network under its name, its home in /data (null: there already), started. */
  async joinAndStart(c: Docker.Container, name: string, home: string | null): Promise<void> {
    await this.attach(c, name);
    if (home !== null) await c.putArchive(tar.pack(home), { path: '/data' });
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
