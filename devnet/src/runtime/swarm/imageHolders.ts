/**
 * Who holds a node image that the tool loaded into a machine's engine (no registry), kept on that
 * engine itself: every devnet that runs it there adds a tag of its own to the image,
 * chain-devnet/held-by-<devnet id>:<image id>, and takes it away at its `down`. The last devnet
 * to go removes the image; an image that the machine had before the tool loaded it (the user's)
 * never gets such a tag, so no devnet ever removes it.
 *
 * The engine does the counting: a tag is added only to an image that is there, and removing a tag
 * from an image with other tags only untags it. So devnets that come up and go down at once, or a
 * run killed half-way (its tags stay until its `down`, which also finds what it meant to load in
 * swarm-images.json), never remove an image another devnet holds, nor leave one nobody holds.
 */

import { waitFor } from '@chain-devnet/kit/wait';
import type Docker from 'dockerode';
import { isConflict, isNotFound, orNull } from '../docker/engineErrors.js';

const HOLDER_REPO = 'chain-devnet/held-by-';

/** The tag by which devnet `devnet` holds image `imageId` (sha256:…) on a machine. */
export function holderTag(devnet: string, imageId: string): { repo: string; tag: string } {
  return { repo: `${HOLDER_REPO}${devnet}`, tag: imageId.replace(/^sha256:/, '').slice(0, 16) };
}

const refOf = (t: { repo: string; tag: string }) => `${t.repo}:${t.tag}`;

/** The ids of the devnets that hold an image (its holder tags). */
export function holdersOf(tags: readonly string[] | null | undefined): string[] {
  return (tags ?? [])
    .filter((t) => t.startsWith(HOLDER_REPO))
    .map((t) => t.slice(HOLDER_REPO.length).split(':')[0]!);
}

async function inspect(engine: Docker, ref: string): Promise<Docker.ImageInspectInfo | null> {
  return orNull(engine.getImage(ref).inspect());
}

/** Puts tag `ref` (repo:tag) on image `imageId` unless it is there. */
async function tagAs(engine: Docker, imageId: string, ref: string): Promise<void> {
  const colon = ref.lastIndexOf(':');
  await engine.getImage(imageId).tag({ repo: ref.slice(0, colon), tag: ref.slice(colon + 1) });
}

/**
 * Devnet `devnet` holds image `imageId`, which the services know as `ref`. False when the image is
 * not there (any more: the last holder's down removed it meanwhile): load it, then hold it.
 */
export async function holdImage(
  engine: Docker,
  imageId: string,
  ref: string,
  devnet: string,
): Promise<boolean> {
  try {
    const t = holderTag(devnet, imageId);
    await engine.getImage(imageId).tag(t);
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
  // Held, it stays. A down that let the image go a moment before may have taken the services'
  // name off it (it does so first, and puts it back when it sees a new holder): put it back.
  if ((await inspect(engine, ref)) === null) await tagAs(engine, imageId, ref);
  return true;
}

/** Whether the image the services know as `ref` is the tool's: some devnet holds it. */
export async function heldByDevnets(engine: Docker, ref: string): Promise<boolean> {
  return holdersOf((await inspect(engine, ref))?.RepoTags).length > 0;
}

export type Release =
  | { readonly removed: true }
  | { readonly removed: false; readonly why: string }
  | { readonly gone: true };

/**
 * Devnet `devnet` lets go of image `imageId` (known as `ref`), which it loaded or held. The image
 * goes when no other devnet holds it and no other devnet's service runs `ref` (`stillUsed`);
 * else only this devnet's tag goes.
 */
export async function releaseImage(
  engine: Docker,
  imageId: string,
  ref: string,
  devnet: string,
  stillUsed: boolean,
): Promise<Release> {
  const mine = refOf(holderTag(devnet, imageId));
  const image = (await inspect(engine, mine)) ?? (await inspect(engine, imageId));
  if (image === null) return { gone: true };
  const tags = image.RepoTags ?? [];
  const others = holdersOf(tags).filter((d) => d !== devnet);
  if (others.length > 0 || stillUsed) {
    if (tags.includes(mine)) await untag(engine, mine);
    return {
      removed: false,
      why: others.length > 0 ? `held by devnet ${others.join(', ')}` : "another devnet's services run it",
    };
  }
  // The last holder: the services' name first. An up that holds it meanwhile (its tag added to
  // what is still there) is seen below, and the name put back for it.
  if (tags.includes(ref) && tags.includes(mine)) {
    await untag(engine, ref);
    const now = await inspect(engine, mine);
    if (now !== null && holdersOf(now.RepoTags).some((d) => d !== devnet)) {
      await tagAs(engine, imageId, ref);
      await untag(engine, mine);
      return {
        removed: false,
        why: `held by devnet ${holdersOf(now.RepoTags)
          .filter((d) => d !== devnet)
          .join(', ')}`,
      };
    }
  }
  // Its last tag goes with the image. A container the swarm is still taking away holds the image a
  // moment longer (a fresh-clone CI run found the image left on a worker): retried while in use.
  const last = tags.includes(mine) ? mine : ref;
  await waitFor(`image ${ref} to be removable`, 30_000, async () => {
    try {
      await engine.getImage(last).remove();
      return true;
    } catch (e) {
      if (isNotFound(e)) return true;
      if (isConflict(e)) return false;
      throw e;
    }
  });
  return { removed: true };
}

/** Takes one tag off an image (the image stays while it has others). */
async function untag(engine: Docker, ref: string): Promise<void> {
  try {
    await engine.getImage(ref).remove({ noprune: true });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
