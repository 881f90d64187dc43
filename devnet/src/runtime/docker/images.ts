/**
 * Images: use one that is present, else pull it, else (where no registry answers) build a
 * stand-in from binaries of this host: the program, the shared libraries `ldd` lists, and
 * nothing else, FROM scratch. Such an image started in under half a second here.
 */
import { copyFile, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runProgram } from '@chain-devnet/kit/process';
import tar from 'tar-fs';
import { DevnetError } from '../../base/errors.js';
import type { Progress } from '../runtime.js';
import { buildOnce } from './buildOnce.js';
import { docker } from './engine.js';

export async function imageExists(ref: string): Promise<boolean> {
  try {
    await docker().getImage(ref).inspect();
    return true;
  } catch {
    return false;
  }
}

/** Pulls `ref`; false (with the reason) when no registry gives it within the time. */
export async function tryPull(
  ref: string,
  timeoutMs = 60_000,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const stream = await docker().pull(ref);
    await Promise.race([
      new Promise<void>((resolve, reject) =>
        docker().modem.followProgress(stream, (err: Error | null) => (err ? reject(err) : resolve())),
      ),
      new Promise<void>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref(),
      ),
    ]);
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: (e as Error).message.split('\n')[0]!.slice(0, 200) };
  }
}

/** Builds an image from a folder holding a Dockerfile (and what it copies); fails with the build's own message. */
export async function buildFromFolder(
  context: string,
  tag: string,
  options: {
    dockerfile?: string;
    buildargs?: Record<string, string>;
    entries?: string[];
    /** Receives the build's steps ("Step 3/8 : COPY …") as they start. */
    progress?: Progress;
  } = {},
): Promise<void> {
  const pack = tar.pack(context, options.entries === undefined ? {} : { entries: options.entries });
  const stream = await docker().buildImage(pack, {
    t: tag,
    dockerfile: options.dockerfile ?? 'Dockerfile',
    ...(options.buildargs === undefined ? {} : { buildargs: options.buildargs }),
    labels: { [BUILT_IMAGE_LABEL]: 'true' },
  });
  await new Promise<void>((resolve, reject) =>
    docker().modem.followProgress(
      stream,
      (err: Error | null, output: { error?: string; errorDetail?: { message?: string } }[]) => {
        const failed = err?.message ?? output.find((o) => o.error !== undefined)?.error;
        if (failed !== undefined) reject(new DevnetError('IMAGE_BUILD', `building ${tag} failed: ${failed}`));
        else resolve();
      },
      (event: { stream?: string }) => {
        const step = event.stream?.trim();
        if (step?.startsWith('Step ')) options.progress?.(`  ${step}`);
      },
    ),
  );
}

/** The label of every image devnet builds. */
export const BUILT_IMAGE_LABEL = 'io.chain-devnet.image';

/**
 * Removes the images of `repository` that devnet built, beyond the `keep` newest, leaving any a
 * container (running or stopped) still uses and those in `protect` (images the command is about
 * to run: a devnet of several versions builds several before it makes a container): each change
 * to the node makes a new image, and those would otherwise pile up. The tags removed, newest first.
 */
export async function removeOlderBuiltImages(
  repository: string,
  keep: number,
  protect: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const images = await docker().listImages({ filters: { label: [`${BUILT_IMAGE_LABEL}=true`] } });
  const tagged = images
    .map((i) => ({ created: i.Created, tag: (i.RepoTags ?? []).find((t) => t.startsWith(`${repository}:`)) }))
    .filter((i): i is { created: number; tag: string } => i.tag !== undefined)
    // Newest first; a tie (Created is in seconds) by tag, so that the order never depends on the listing.
    .sort((a, b) => b.created - a.created || b.tag.localeCompare(a.tag));
  const removed: string[] = [];
  for (const { tag } of tagged.slice(keep).filter((t) => !protect.has(t.tag))) {
    // Refused (409) while a container uses it: it stays until a later build. Any other failure
    // leaves it too: this clean-up never fails the build that came before it.
    const gone = await docker()
      .getImage(tag)
      .remove()
      .then(() => true)
      .catch(() => false);
    if (gone) removed.push(tag);
  }
  return removed;
}

/** The shared libraries a binary needs, as absolute paths (ld.so included). */
async function sharedLibraries(binary: string): Promise<string[]> {
  const ldd = await runProgram({ command: 'ldd', args: [binary], timeoutMs: 30_000 });
  // A static binary makes ldd exit 1 ("not a dynamic executable"): it needs nothing.
  if (ldd.code !== 0 && /not a dynamic executable/.test(`${ldd.stdout}${ldd.stderr}`)) return [];
  if (ldd.code !== 0) throw new Error(`ldd ${binary} exited ${ldd.code}: ${ldd.stderr.trim()}`);
  const libs: string[] = [];
  for (const line of ldd.stdout.split('\n')) {
    const m = /=>\s+(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) libs.push(m[1]!);
  }
  return libs;
}

export interface HostBinary {
  /** Path on this host. */
  readonly source: string;
  /** Path in the image. */
  readonly target: string;
}

/**
 * An image FROM scratch holding host binaries and the libraries they link, with PATH set.
 * `extraLibsOf` lists more binaries (native addons) whose libraries are needed too.
 */
export async function buildHostImage(
  tag: string,
  binaries: readonly HostBinary[],
  extraLibsOf: readonly string[] = [],
  dockerfileTail = '',
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'devnet-image-'));
  try {
    const rootfs = join(dir, 'rootfs');
    const libs = new Set<string>();
    for (const b of [...binaries.map((x) => x.source), ...extraLibsOf])
      for (const l of await sharedLibraries(b)) libs.add(l);
    const copyTo = async (source: string, target: string) => {
      await mkdir(dirname(join(rootfs, target)), { recursive: true });
      // The real file under the name it is looked up by (symlinks resolved).
      await copyFile(await realpath(source), join(rootfs, target));
    };
    for (const b of binaries) await copyTo(b.source, b.target);
    for (const l of libs) await copyTo(l, l);
    await mkdir(join(rootfs, 'tmp'), { recursive: true });
    await mkdir(join(rootfs, 'etc'), { recursive: true });
    await writeFile(
      join(rootfs, 'etc', 'passwd'),
      'root:x:0:0:root:/root:/bin/false\nnobody:x:65534:65534:nobody:/:/bin/false\n',
    );
    await writeFile(join(rootfs, 'etc', 'group'), 'root:x:0:\nnogroup:x:65534:\n');
    await writeFile(
      join(dir, 'Dockerfile'),
      `FROM scratch\nCOPY rootfs/ /\nENV PATH=/usr/local/bin:/usr/bin:/bin\n${dockerfileTail}`,
    );
    await buildFromFolder(dir, tag);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `preferred` when it is here or can be pulled; else the stand-in `fallbackTag`, built once by
 * `buildFallback`. Says which in `progress`.
 */
export async function ensureImage(
  preferred: string,
  fallbackTag: string,
  buildFallback: () => Promise<void>,
  progress: Progress,
): Promise<string> {
  if (await imageExists(preferred)) return preferred;
  if (await imageExists(fallbackTag)) {
    progress(`image ${preferred} is not here; using ${fallbackTag}, made earlier from this host's binaries`);
    return fallbackTag;
  }
  progress(`pulling ${preferred}`);
  const pulled = await tryPull(preferred);
  if (pulled.ok) return preferred;
  progress(
    `cannot pull ${preferred} (${pulled.reason}); making ${fallbackTag} from this host's binaries instead`,
  );
  await buildOnce(fallbackTag, { exists: () => imageExists(fallbackTag), build: buildFallback });
  return fallbackTag;
}
