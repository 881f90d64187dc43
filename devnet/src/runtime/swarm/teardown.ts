/**
 * `devnet down` on the swarm runtime: the services, then on every machine the containers they
 * left, the volumes and its hold on the node images the tool loaded (the image goes with the last
 * devnet that holds it: imageHolders.ts), then configs, secrets and the network. What cannot
 * be reached (a machine with no engine address) is said, not skipped silently.
 */
import { rm } from 'node:fs/promises';
import { waitFor } from '@chain-devnet/kit/wait';
import type Docker from 'dockerode';
import { isConflict, isNotFound, orNull } from '../docker/engineErrors.js';
import { devnetFilter, LABEL_DEVNET } from '../docker/labels.js';
import { releaseImage } from './imageHolders.js';
import type { SwarmDevnet } from './swarmDevnet.js';
import { readLoaded } from './swarmImages.js';

export async function teardownSwarm(sd: SwarmDevnet, keepData: boolean): Promise<string[]> {
  const removed: string[] = [];
  const left: string[] = [];
  const filters = devnetFilter(sd.layout);
  const services = (await sd.d.listServices({ filters })) as Docker.Service[];
  for (const s of services) {
    await sd.d.getService(s.ID).remove();
    removed.push(`service ${s.Spec?.Name ?? s.ID}`);
  }
  const machines = await sd.machines().catch(() => null);
  // On each machine: the containers the services' tasks leave (the swarm removes them on its
  // own, a moment later; volumes in use cannot go), then the volumes and the images loaded.
  const loaded = await readLoaded(sd.layout);
  const stillUsed = await imagesOfOtherDevnets(sd);
  for (const m of machines?.all ?? []) {
    if (!machines!.hasEngine(m)) {
      left.push(`machine ${m.name}: its volumes and containers (no engine address to reach it)`);
      continue;
    }
    const engine = machines!.engine(m, 'clean up');
    try {
      await removeContainers(engine, filters);
      if (!keepData) {
        const { Volumes } = await engine.listVolumes({ filters });
        for (const v of Volumes ?? []) {
          await engine.getVolume(v.Name).remove();
          removed.push(`volume ${v.Name} on ${m.name}`);
        }
      }
      for (const l of loaded.filter((x) => x.machine === m.id)) {
        // A record of an older devnet has no image id: the image of that name there.
        const id = l.id ?? (await orNull(engine.getImage(l.image).inspect()))?.Id;
        if (id === undefined) continue;
        const r = await releaseImage(engine, id, l.image, sd.layout.id, stillUsed.has(l.image));
        if ('gone' in r) continue;
        if (r.removed)
          removed.push(`image ${l.image} on ${m.name} (the tool loaded it, no other devnet holds it)`);
        else left.push(`image ${l.image} on ${m.name} (${r.why}: the last devnet's down removes it)`);
      }
    } catch (e) {
      left.push(`on ${m.name}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  for (const c of (await sd.d.listConfigs({ filters })) as { ID: string; Spec?: { Name?: string } }[]) {
    await sd.d.getConfig(c.ID).remove();
    removed.push(`config ${c.Spec?.Name ?? c.ID}`);
  }
  for (const s of (await sd.d.listSecrets({ filters })) as { ID: string; Spec?: { Name?: string } }[]) {
    await sd.d.getSecret(s.ID).remove();
    removed.push(`secret ${s.Spec?.Name ?? s.ID}`);
  }
  for (const n of await sd.d.listNetworks({ filters })) {
    // An overlay network goes once no task is attached to it on any machine.
    await waitFor(`network ${n.Name} to be removable`, 30_000, async () => {
      try {
        await sd.d.getNetwork(n.Id).remove();
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
    await rm(sd.layout.home, { recursive: true, force: true });
    removed.push(`folder ${sd.layout.home}`);
  }
  if (left.length > 0) removed.push(...left.map((l) => `NOT removed: ${l}`));
  return removed;
}

/** Waits for the swarm to remove the tasks' containers on one machine, then removes any still there. */
async function removeContainers(engine: Docker, filters: { label: string[] }): Promise<void> {
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
async function imagesOfOtherDevnets(sd: SwarmDevnet): Promise<Set<string>> {
  const all = (await sd.d.listServices({ filters: { label: [LABEL_DEVNET] } })) as Docker.Service[];
  const images = new Set<string>();
  for (const s of all) {
    if (s.Spec?.Labels?.[LABEL_DEVNET] === sd.layout.id) continue;
    const image = (s.Spec?.TaskTemplate as Docker.ContainerTaskSpec | undefined)?.ContainerSpec?.Image;
    if (image !== undefined) images.add(image.split('@')[0]!);
  }
  return images;
}
