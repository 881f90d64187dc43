/**
 * The chain-node image, built from node/Dockerfile with a context of exactly what the node runs:
 * package.json, dist/node/src, and the packages the node's own dependencies reach in
 * package-lock.json (not the devnet's Docker client, not dev tools). Its tag is a hash of those
 * inputs, so an unchanged node is never built twice ("docker with the image already built").
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DevnetError } from '../../errors.js';
import { repoRoot } from '../monitoringFiles.js';
import type { Progress } from '../runtime.js';
import { buildFromFolder, buildHostImage, ensureImage, imageExists } from './images.js';

export const OFFICIAL_NODE_BASE = 'node:20-bookworm-slim';
/** Packages the devnet tool needs but the node does not. */
const TOOL_ONLY = new Set(['dockerode', 'yaml', 'tar-fs']);

interface LockPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
}

/** node_modules paths reached from the node's dependencies, resolved as Node resolves them. */
export function nodeRuntimePackages(lock: { packages: Record<string, LockPackage> }, root: string): string[] {
  const rootDeps = Object.keys(lock.packages['']?.dependencies ?? {}).filter((d) => !TOOL_ONLY.has(d));
  const seen = new Set<string>();
  const resolve = (from: string, name: string): string | null => {
    // Look in from/node_modules, then each parent's node_modules, as require() does.
    let base = from;
    for (;;) {
      const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
      if (lock.packages[candidate] !== undefined) return candidate;
      if (base === '') return null;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut === -1 ? '' : base.slice(0, cut);
    }
  };
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const p = lock.packages[path]!;
    for (const dep of [...Object.keys(p.dependencies ?? {}), ...Object.keys(p.optionalDependencies ?? {})]) {
      const found = resolve(path, dep);
      if (found !== null) visit(found);
    }
  };
  for (const d of rootDeps) {
    const found = resolve('', d);
    if (found !== null) visit(found);
  }
  // Optional packages for other platforms are in the lock but not on disk.
  return [...seen].filter((p) => existsSync(join(root, p))).sort();
}

async function hashTree(hash: ReturnType<typeof createHash>, dir: string, rel: string): Promise<void> {
  const entries = (await readdir(join(dir, rel), { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const e of entries) {
    const path = join(rel, e.name);
    if (e.isDirectory()) await hashTree(hash, dir, path);
    else if (e.isFile())
      hash
        .update(path)
        .update('\0')
        .update(await readFile(join(dir, path)));
  }
}

async function localNodeBase(tag: string): Promise<void> {
  const root = repoRoot();
  const addon = join(root, 'node_modules/classic-level/prebuilds/linux-x64/classic-level.glibc.node');
  await buildHostImage(
    tag,
    [{ source: process.execPath, target: '/usr/local/bin/node' }],
    existsSync(addon) ? [addon] : [],
  );
}

export async function ensureNodeImage(progress: Progress): Promise<string> {
  const root = repoRoot();
  if (!existsSync(join(root, 'dist/node/src/bin/chain-node.js')))
    throw new DevnetError(
      'IMAGE_BUILD',
      'the node is not built (dist/node/src is missing): run npm install && npm run build',
    );
  const base = await ensureImage(
    OFFICIAL_NODE_BASE,
    `chain-devnet/node-base:${process.versions.node}`,
    () => localNodeBase(`chain-devnet/node-base:${process.versions.node}`),
    progress,
  );
  const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockPackage>;
  };
  const packages = nodeRuntimePackages(lock, root);
  const hash = createHash('sha256');
  hash
    .update(base)
    .update('\0')
    .update(await readFile(join(root, 'node/Dockerfile')));
  hash
    .update(await readFile(join(root, 'package.json')))
    .update(await readFile(join(root, 'package-lock.json')));
  await hashTree(hash, root, 'dist/node/src');
  const tag = `chain-devnet/chain-node:${hash.digest('hex').slice(0, 16)}`;
  if (await imageExists(tag)) return tag;
  progress(`building the node image ${tag} (${packages.length} packages, FROM ${base})`);
  await buildFromFolder(root, tag, {
    dockerfile: 'node/Dockerfile',
    buildargs: { BASE_IMAGE: base },
    // A package folder holds its nested node_modules already: list only the outermost ones.
    entries: [
      'package.json',
      'node/Dockerfile',
      'dist/node/src',
      ...packages.filter((p) => !packages.some((q) => p.startsWith(`${q}/node_modules/`))),
    ],
  });
  return tag;
}
