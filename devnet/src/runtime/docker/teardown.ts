/** `devnet down` on the docker runtime: every container, network and (without --keep-data) volume with the devnet's label, then its home. */
import { rm } from 'node:fs/promises';
import type Docker from 'dockerode';
import type { Layout } from '../../base/layout.js';
import { devnetFilter } from './labels.js';

export async function teardownContainers(d: Docker, layout: Layout, keepData: boolean): Promise<string[]> {
  const removed: string[] = [];
  const filters = devnetFilter(layout);
  const containers = await d.listContainers({ all: true, filters });
  await Promise.all(
    containers.map(async (c) => {
      // v: the anonymous volumes an image's VOLUME made go with the container (named ones never do).
      await d.getContainer(c.Id).remove({ force: true, v: true });
      removed.push(`container ${c.Names[0]?.replace(/^\//, '') ?? c.Id}`);
    }),
  );
  for (const n of await d.listNetworks({ filters })) {
    await d.getNetwork(n.Id).remove();
    removed.push(`network ${n.Name}`);
  }
  if (!keepData) {
    const { Volumes } = await d.listVolumes({ filters });
    for (const v of Volumes ?? []) {
      await d.getVolume(v.Name).remove();
      removed.push(`volume ${v.Name}`);
    }
    await rm(layout.home, { recursive: true, force: true });
    removed.push(`folder ${layout.home}`);
  }
  return removed;
}
