/**
 * The volume of a node or service of the swarm runtime, on the machine its service is pinned to,
 * read and written through that machine's engine (swarmEngines.ts) by a container that mounts it
 * and is never started (an engine copies into and out of a created container's volumes). Written
 * from the home on this machine before the service's first task when that home holds more than
 * the service's configs and secrets (a devnet restored from an archive, `up --from`); read back
 * into it, the service scaled to 0, for `devnet save`.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type Docker from 'dockerode';
import { orNull } from '../docker/engineErrors.js';
import { pullVolume, pushVolume } from '../docker/volumeArchive.js';
import { CONTAINER_HOME } from '../nodeCommand.js';
import type { SwarmDevnet } from './swarmDevnet.js';
import type { Machine } from './swarmEngines.js';

/** The files of the home a task gets as configs and secrets (mounted over its volume), relative to it. */
export function mountedFiles(c: Docker.ContainerSpec): Set<string> {
  const refs = [...(c.Configs ?? []), ...(c.Secrets ?? [])] as { File?: { Name?: string } }[];
  return new Set(refs.map((r) => r.File?.Name ?? '').map((n) => relative(CONTAINER_HOME, n)));
}

/** The machine id a service is pinned to (placement constraint node.id==…), if any. */
export function pinnedMachine(s: Docker.Service): string | undefined {
  const task = s.Spec?.TaskTemplate as Docker.ContainerTaskSpec | undefined;
  return /^node\.id==(\S+)$/.exec(task?.Placement?.Constraints?.[0] ?? '')?.[1];
}

/** A created container of `image` on `machine` with the volume of `name` at CONTAINER_HOME, removed after `use`. */
async function onVolume(
  sd: SwarmDevnet,
  machine: Machine,
  image: string,
  name: string,
  use: (c: Docker.Container) => Promise<void>,
): Promise<void> {
  const engine = (await sd.machines()).engine(machine, `reach the volume of ${name}`);
  const c = await engine.createContainer({
    Image: image,
    // The devnet's labels: down removes it on every machine should this command die here.
    Labels: sd.labels(name),
    NetworkDisabled: true,
    HostConfig: { Binds: [`${sd.name(name)}:${CONTAINER_HOME}`] },
  });
  try {
    await use(c);
  } finally {
    await c.remove({ force: true });
  }
}

/**
 * Before a service's first task: the home's files other than `skip` (its configs and secrets)
 * into a volume made for it on `machine`. Nothing when there are none (a new node) or when the
 * volume is there already (data kept by `down --keep-data`: it is newer than any copy here).
 */
export async function seedVolume(
  sd: SwarmDevnet,
  machine: Machine,
  image: string,
  name: string,
  home: string,
  skip: ReadonlySet<string>,
): Promise<void> {
  const entries = await readdir(home, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => relative(home, join(e.parentPath, e.name)));
  if (files.every((f) => skip.has(f))) return;
  const engine = (await sd.machines()).engine(machine, `put the saved data of ${name} on its machine`);
  const volume = sd.name(name);
  if ((await orNull(engine.getVolume(volume).inspect())) !== null) return;
  await engine.createVolume({ Name: volume, Labels: sd.labels(name) });
  await onVolume(sd, machine, image, name, (c) => pushVolume(c, home, skip));
}

/** For `devnet save`: the volume of the stopped service into `home`, except the files mounted over it. */
export async function pullServiceVolume(sd: SwarmDevnet, name: string, home: string): Promise<void> {
  const s = await sd.requireService(name, 'save');
  const task = s.Spec!.TaskTemplate as Docker.ContainerTaskSpec;
  const pinned = pinnedMachine(s);
  const image = task.ContainerSpec?.Image;
  if (pinned === undefined || image === undefined)
    throw new Error(`the service of ${name} has no machine or image in its spec`);
  const machine = (await sd.machines()).byId(pinned);
  await onVolume(sd, machine, image, name, (c) => pullVolume(c, home, mountedFiles(task.ContainerSpec!)));
}
