/**
 * The node image on every machine of the swarm. It is built (or found) on the manager as the
 * docker runtime builds it. Then:
 *   - with a registry (--registry R, manifest `registry:`): tagged R/chain-devnet/chain-node:<hash>,
 *     pushed there, and the services pull it on whatever machine runs them (credentials, when the
 *     registry needs any, from ~/.docker/config.json as `docker login` left them);
 *   - without one: `docker save` on the manager and `docker load` into every other ready machine
 *     whose engine the devnet can reach and that lacks that exact image (compared by image id),
 *     each load said in the output. The devnet holds what the tool loaded (imageHolders.ts: a tag
 *     of its own on the image there), also an image another devnet loaded and still holds, and
 *     records it in its home (swarm-images.json, before the load: a run killed while loading
 *     leaves it known); the last devnet to go down removes it. An image the machine had that no
 *     devnet holds is the user's: it is used, never recorded, never removed. A machine whose
 *     engine is unknown cannot get the image: no node is placed there, and the output says why.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { DevnetError } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';
import { docker } from '../docker/engine.js';
import type { Progress } from '../runtime.js';
import { holdersOf, holdImage } from './imageHolders.js';
import type { Machine, SwarmMachines } from './swarmEngines.js';

export interface NodeImagePlan {
  /** The image reference the node services run. */
  readonly ref: string;
  /** Ready machines that have the image or pull it, in round-robin order. */
  readonly usable: readonly Machine[];
  /** Why a machine cannot run nodes, by machine id. */
  readonly why: ReadonlyMap<string, string>;
  /** Credentials for the registry the services pull from, or undefined. */
  readonly auth: RegistryAuth | undefined;
}

export interface RegistryAuth {
  readonly username?: string;
  readonly password?: string;
  readonly serveraddress: string;
}

export interface Loaded {
  readonly machine: string;
  readonly image: string;
  /** Its image id (absent in a record of an older devnet). */
  readonly id?: string;
}

const loadedFile = (layout: Layout) => join(layout.home, 'swarm-images.json');

/** Images this devnet loaded into machines' engines (not the manager's: that one builds). */
export async function readLoaded(layout: Layout): Promise<Loaded[]> {
  try {
    return (JSON.parse(await readFile(loadedFile(layout), 'utf8')) as { loaded: Loaded[] }).loaded;
  } catch {
    return [];
  }
}

/** Writes to each devnet's record, one after another (machines are served at once). */
const recording = new Map<string, Promise<void>>();

function recordLoaded(layout: Layout, l: Loaded): Promise<void> {
  const file = loadedFile(layout);
  const next = (recording.get(file) ?? Promise.resolve()).then(async () => {
    const all = await readLoaded(layout);
    if (all.some((x) => x.machine === l.machine && x.image === l.image && x.id === l.id)) return;
    await writeFile(file, `${JSON.stringify({ loaded: [...all, l] }, null, 2)}\n`);
  });
  recording.set(
    file,
    next.catch(() => undefined),
  );
  return next;
}

/** Waits for a JSON progress stream of the engine (load, push) to end; fails with its error. */
function finished(engine: Docker, stream: NodeJS.ReadableStream, what: string): Promise<void> {
  return new Promise((resolve, reject) =>
    engine.modem.followProgress(
      stream,
      (err: Error | null, output: { error?: string; errorDetail?: { message?: string } }[]) => {
        const failed = err?.message ?? output.find((o) => o.error !== undefined)?.error;
        if (failed !== undefined) reject(new DevnetError('IMAGE_BUILD', `${what} failed: ${failed}`));
        else resolve();
      },
    ),
  );
}

async function imageOrNull(engine: Docker, ref: string): Promise<Docker.ImageInspectInfo | null> {
  try {
    return await engine.getImage(ref).inspect();
  } catch {
    return null;
  }
}

/** The credentials `docker login REGISTRY` stored for this user, if any (an empty auth otherwise). */
async function registryAuth(registry: string): Promise<RegistryAuth> {
  const host = registry.split('/')[0]!;
  try {
    const config = JSON.parse(
      await readFile(join(process.env.DOCKER_CONFIG ?? join(homedir(), '.docker'), 'config.json'), 'utf8'),
    ) as { auths?: Record<string, { auth?: string }> };
    const entry = config.auths?.[host] ?? config.auths?.[`https://${host}`];
    if (entry?.auth !== undefined) {
      const [username, ...rest] = Buffer.from(entry.auth, 'base64').toString('utf8').split(':');
      return { username: username!, password: rest.join(':'), serveraddress: host };
    }
  } catch {
    // no config: a registry without authentication
  }
  return { serveraddress: host };
}

async function pushToRegistry(
  tag: string,
  registry: string,
  progress: Progress,
): Promise<{ ref: string; auth: RegistryAuth }> {
  const d = docker();
  const [repo, version] = tag.split(':') as [string, string];
  const target = `${registry}/${repo}`;
  const ref = `${target}:${version}`;
  const auth = await registryAuth(registry);
  await d.getImage(tag).tag({ repo: target, tag: version });
  progress(`pushing ${ref} (the swarm's machines pull it from ${registry})`);
  const stream = (await d.getImage(ref).push({}, undefined, auth)) as unknown as NodeJS.ReadableStream;
  await finished(d, stream, `pushing ${ref} to ${registry}`);
  return { ref, auth };
}

/** Gives every reachable machine the image; says which machines cannot run nodes and why. */
export async function provideNodeImage(
  layout: Layout,
  machines: SwarmMachines,
  registry: string | null,
  progress: Progress,
  /** The node image on the manager (its version's: docker/containers.ts imageOfBuild). */
  tag: string,
): Promise<NodeImagePlan> {
  const why = new Map<string, string>();
  for (const m of machines.all) if (!m.ready) why.set(m.id, 'it is not ready and active (docker node ls)');
  const ready = machines.all.filter((m) => m.ready);
  if (registry !== null) {
    const { ref, auth } = await pushToRegistry(tag, registry, progress);
    return { ref, usable: ready, why, auth };
  }
  const manager = docker();
  const id = (await imageOrNull(manager, tag))?.Id;
  if (id === undefined) throw new DevnetError('IMAGE_BUILD', `${tag} is not on the manager's engine`);
  const usable: Machine[] = [];
  await Promise.all(
    ready.map(async (m) => {
      if (m.engine === 'manager') return;
      if (!machines.hasEngine(m)) {
        why.set(
          m.id,
          `no registry (--registry R) and no engine address to load the node image into (manifest engines: { ${m.name}: tcp://HOST:2375 }, or docker node update --label-add io.chain-devnet.engine=tcp://HOST:2375 ${m.name})`,
        );
        return;
      }
      const engine = machines.engine(m, `load the node image into ${m.name}`);
      const record = { machine: m.id, image: tag, id };
      const there = await imageOrNull(engine, tag);
      if (there?.Id === id) {
        // No devnet holds it: the machine's own (the user's), used and never removed.
        if (holdersOf(there.RepoTags).length === 0) return;
        // Loaded by a devnet that holds it still: held by this one too (the last down removes it).
        await recordLoaded(layout, record);
        if (await holdImage(engine, id, tag, layout.id)) return;
      }
      await recordLoaded(layout, record);
      progress(`loading ${tag} into machine ${m.name} (no registry: docker save | docker load)`);
      const started = Date.now();
      const tar = (await manager.getImage(tag).get()) as NodeJS.ReadableStream;
      await finished(
        engine,
        (await engine.loadImage(tar, { quiet: true })) as NodeJS.ReadableStream,
        `loading ${tag} into ${m.name}`,
      );
      if (!(await holdImage(engine, id, tag, layout.id)))
        throw new DevnetError('IMAGE_BUILD', `${tag} was loaded into ${m.name} and is not there`);
      progress(`loaded ${tag} into ${m.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }),
  );
  for (const m of ready) if (!why.has(m.id)) usable.push(m);
  for (const m of ready.filter((x) => why.has(x.id)))
    progress(`machine ${m.name} runs no node: ${why.get(m.id)}`);
  return { ref: tag, usable, why, auth: undefined };
}
