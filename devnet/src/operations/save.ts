/**
 * `devnet save FILE`: one archive of the whole devnet (archive/format.ts). A running devnet is
 * cut consistently: every node is stopped gracefully at once (each has written its last final
 * block and its priv-validator state), what its runtime keeps in a volume (docker; a swarm's
 * through the engine of the machine each is on) is read into a folder of its own beside its home,
 * each node's height is read from its store, the archive is written, and every node is started
 * again. The homes on this machine are left as they were: a copy of a store left in one would go
 * back into a new volume at the next first start (`up` after `down --keep-data`), over newer data.
 * Nodes stopped together can differ by one block; the archive records each height.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BLOCKED_PEERS_FILE, NET_CONDITIONS_FILE, storedHeight } from '@chain-devnet/node/testnet';
import { type ArchiveManifest, NET_FILE, pathProblem } from '../archive/format.js';
import { type SourceFile, writeArchive } from '../archive/write.js';
import type { Devnet } from '../devnet/devnet.js';
import type { Progress } from '../runtime/runtime.js';
import { anyRunning, restartAfterCopy, stopForCopy } from './lifecycle.js';
import { MARKET_SERVICE, WORKER_SERVICE } from './market.js';
import { sourceLog, timelineSources } from './timeline.js';

/**
 * Written again by every start (the peers' addresses differ by runtime and base port; the
 * conditions are made from devnet/net.json).
 */
const NOT_SAVED = new Set(['node.json', BLOCKED_PEERS_FILE, NET_CONDITIONS_FILE]);

async function filesUnder(
  dir: string,
  prefix: string,
  skip: (rel: string) => boolean = () => false,
): Promise<SourceFile[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: SourceFile[] = [];
  for (const rel of entries.sort()) {
    const from = join(dir, rel);
    const path = relative(dir, from).split('\\').join('/');
    if (!(await lstat(from)).isFile() || NOT_SAVED.has(rel) || skip(path)) continue;
    // Only what the archive format admits of a home (the files its program reads): a node stopped
    // while it wrote a snapshot leaves <height>.snapshot.gz.tmp, which it removes itself at its
    // next start; carried, it made every restore of the archive refused.
    if (pathProblem(`${prefix}/${path}`) !== null) continue;
    out.push({ path: `${prefix}/${path}`, from });
  }
  return out;
}

/**
 * A node's or service's files: those its runtime brought back from its volume (`pulled`) and,
 * for the rest, its home here (genesis and keys a swarm gives as configs and secrets); the home's
 * store (data/) only when the volume had none (the process runtime: the home is where it runs).
 */
async function homeFiles(home: string, pulled: string, prefix: string): Promise<SourceFile[]> {
  const fromVolume = await filesUnder(pulled, prefix);
  const have = new Set(fromVolume.map((f) => f.path));
  const storeThere = existsSync(join(pulled, 'data'));
  const fromHome = await filesUnder(
    home,
    prefix,
    (p) => have.has(`${prefix}/${p}`) || (storeThere && p.startsWith('data/')),
  );
  // Byte order of the paths (docs/PROTOCOL.md, "Archive format"), not a locale's collation.
  return [...fromVolume, ...fromHome].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface SaveResult {
  readonly file: string;
  readonly manifest: ArchiveManifest;
  readonly restarted: boolean;
  readonly elapsedMs: number;
}

export interface SaveOptions {
  /** Start the nodes again after the copy when they ran (default true; false: a run about to be torn down). */
  readonly restart?: boolean;
}

export async function save(
  d: Devnet,
  file: string,
  progress: Progress,
  o: SaveOptions = {},
): Promise<SaveResult> {
  const started = Date.now();
  d.events.note('save', `save ${file}`, { file });
  const running = (o.restart ?? true) && (await anyRunning(d));
  const serviceNames = d.spec.marketPort === null ? [] : [MARKET_SERVICE, WORKER_SERVICE];
  progress(`stopping ${d.nodes.length} nodes at once for a consistent cut`);
  await stopForCopy(d);
  let manifest: ArchiveManifest;
  const heights: Record<string, number | null> = {};
  const pulledRoot = await mkdtemp(join(tmpdir(), 'devnet-save-'));
  try {
    const sources: SourceFile[] = [
      { path: 'devnet/devnet.json', from: d.layout.stateFile },
      { path: 'devnet/accounts.json', from: d.layout.accountsFile },
      // The network conditions in force, when any were ever set (docs/PROTOCOL.md, "Archive format").
      ...(existsSync(d.layout.netFile) ? [{ path: NET_FILE, from: d.layout.netFile }] : []),
    ];
    const names = [...d.nodes.map((n) => n.name), ...serviceNames];
    // Every home brought back at once (on a swarm each from its own machine's engine).
    await Promise.all(
      names.map(async (name) => {
        // A service never started (a saved devnet that was down) has nothing to bring back.
        if ((await d.runtime.node(name).state()) === 'absent') return;
        const pulled = join(pulledRoot, name);
        await mkdir(pulled, { recursive: true });
        await d.runtime.node(name).pullHome(pulled);
      }),
    );
    for (const name of names) {
      const service = serviceNames.includes(name);
      const home = service ? d.layout.serviceHome(name) : d.layout.nodeHome(name);
      const pulled = join(pulledRoot, name);
      // Before the files are listed: opening the store may rewrite its log.
      if (!service) heights[name] = await storedHeight(existsSync(join(pulled, 'data')) ? pulled : home);
      sources.push(...(await homeFiles(home, pulled, `${service ? 'services' : 'nodes'}/${name}`)));
    }
    // The timeline as it is: every source's whole log (operations/timeline.ts), to look at after a restore.
    await mkdir(join(pulledRoot, 'timeline'), { recursive: true });
    for (const source of timelineSources(d)) {
      const from = join(pulledRoot, 'timeline', `${source}.log`);
      await writeFile(from, await sourceLog(d, source));
      sources.push({ path: `timeline/${source}.log`, from });
    }
    progress(`writing ${file} (${sources.length} files; heights ${JSON.stringify(heights)})`);
    manifest = await writeArchive(file, sources, {
      runtime: d.runtime.kind,
      heights,
      versions: Object.fromEntries(d.nodes.map((n) => [n.name, d.versionOf(n.name)])),
    });
  } finally {
    await rm(pulledRoot, { recursive: true, force: true });
    if (running) {
      progress('starting every node again');
      const least = Math.min(...Object.values(heights).map((h) => h ?? 1));
      await restartAfterCopy(d, Number.isFinite(least) ? least : 1);
    }
  }
  return { file, manifest, restarted: running, elapsedMs: Date.now() - started };
}
