/**
 * A node's or service's volume as a tar stream through an engine (docker and swarm runtimes):
 * written from its home on this machine before its first start, read back into that home for
 * `devnet save`. Only regular files and folders come out of a volume (a link in it is not
 * followed here), and the home's `data/` (the store) is replaced whole, so that a file the
 * store dropped since an earlier save does not come back.
 */
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import tar from 'tar-fs';
import { CONTAINER_HOME } from '../nodeCommand.js';

/** The volume's files (the container's CONTAINER_HOME) into `home`, except the paths in `skip`. */
export async function pullVolume(
  c: Docker.Container,
  home: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  const stream = await c.getArchive({ path: CONTAINER_HOME });
  const strip = CONTAINER_HOME.replace(/^\//, '');
  const rel = (name: string) => (name === strip ? '.' : name.replace(`${strip}/`, ''));
  await rm(join(home, 'data'), { recursive: true, force: true });
  await pipeline(
    stream,
    tar.extract(home, {
      map: (h) => ({ ...h, name: rel(h.name) }),
      ignore: (_name, h) =>
        h !== undefined &&
        // `h` is mapped already: its name is relative to the home.
        ((h.type !== 'file' && h.type !== 'directory') || skip.has(h.name.replace(/\/$/, ''))),
    }),
  );
}

/** Every file of `home` except the paths (relative to it) in `skip`, into the container's CONTAINER_HOME. */
export async function pushVolume(
  c: Docker.Container,
  home: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  await c.putArchive(tar.pack(home, { ignore: (name) => skip.has(relative(home, name)) }), {
    path: CONTAINER_HOME,
  });
}
