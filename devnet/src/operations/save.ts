/**
 * `devnet save FILE`: one archive of the whole devnet (archive/format.ts). A running devnet is
 * cut consistently: every node is stopped gracefully at once (each has written its last final
 * block and its priv-validator state), its home is read where its runtime keeps it, each node's
 * height is read from its store, the archive is written, and every node is started again.
 * Nodes stopped together can differ by one block; the archive records each height.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BLOCKED_PEERS_FILE, storedHeight } from '@chain-devnet/node/testnet';
import type { ArchiveManifest } from '../archive/format.js';
import { type SourceFile, writeArchive } from '../archive/write.js';
import type { Devnet } from '../devnet.js';
import { DevnetError } from '../errors.js';
import { MARKET_SERVICE, WORKER_SERVICE } from '../market.js';
import type { Progress } from '../runtime/runtime.js';
import { anyRunning, restartAfterCopy, stopForCopy } from './lifecycle.js';

/** Written again by every start (the peers' addresses differ by runtime and base port). */
const NOT_SAVED = new Set(['node.json', BLOCKED_PEERS_FILE]);

async function filesUnder(dir: string, prefix: string): Promise<SourceFile[]> {
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
    if (!(await lstat(from)).isFile() || NOT_SAVED.has(rel)) continue;
    out.push({ path: `${prefix}/${relative(dir, from).split('\\').join('/')}`, from });
  }
  return out;
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
  if (d.runtime.capabilities().machines)
    throw new DevnetError(
      'RUNTIME',
      `devnet save reads every node's data on this machine; this devnet runs on ${d.runtime.kind}, whose volumes are on other machines: not supported yet`,
    );
  const running = (o.restart ?? true) && (await anyRunning(d));
  const serviceNames = d.spec.marketPort === null ? [] : [MARKET_SERVICE, WORKER_SERVICE];
  progress(`stopping ${d.nodes.length} nodes at once for a consistent cut`);
  await stopForCopy(d);
  let manifest: ArchiveManifest;
  const heights: Record<string, number | null> = {};
  try {
    for (const name of [...d.nodes.map((n) => n.name), ...serviceNames]) {
      const home = serviceNames.includes(name) ? d.layout.serviceHome(name) : d.layout.nodeHome(name);
      // A service never started (a saved devnet that was down) has nothing to bring back.
      if ((await d.runtime.node(name).state()) !== 'absent') await d.runtime.node(name).pullHome(home);
    }
    for (const n of d.nodes) heights[n.name] = await storedHeight(d.layout.nodeHome(n.name));
    const sources: SourceFile[] = [
      { path: 'devnet/devnet.json', from: d.layout.stateFile },
      { path: 'devnet/accounts.json', from: d.layout.accountsFile },
    ];
    for (const n of d.nodes)
      sources.push(...(await filesUnder(d.layout.nodeHome(n.name), `nodes/${n.name}`)));
    for (const s of serviceNames)
      sources.push(...(await filesUnder(d.layout.serviceHome(s), `services/${s}`)));
    progress(`writing ${file} (${sources.length} files; heights ${JSON.stringify(heights)})`);
    manifest = await writeArchive(file, sources, {
      runtime: d.runtime.kind,
      heights,
      versions: Object.fromEntries(d.nodes.map((n) => [n.name, d.versionOf(n.name)])),
    });
  } finally {
    if (running) {
      progress('starting every node again');
      const least = Math.min(...Object.values(heights).map((h) => h ?? 1));
      await restartAfterCopy(d, Number.isFinite(least) ? least : 1);
    }
  }
  return { file, manifest, restarted: running, elapsedMs: Date.now() - started };
}
