/**
 * The chain-node image, built from node/Dockerfile with a context (the repository) of exactly
 * what the node runs: package.json, the bundled node (node/dist/bundle/chain-node.cjs, its
 * launcher chain-node.mjs and its code cache, made by npm run build; the image keeps the cache or
 * remakes it for its own Node) and the one package the bundle keeps outside, classic-level (a
 * native addon), with what that package reaches in package-lock.json. Its tag is a hash of those inputs, so an unchanged node is
 * never built twice ("docker with the image already built").
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DevnetError } from '../../base/errors.js';
import { checkoutRoot, imageCheckout } from '../../base/repo.js';
import type { Progress } from '../runtime.js';
import { buildOnce } from './buildOnce.js';
import {
  buildFromFolder,
  buildHostImage,
  ensureImage,
  imageExists,
  removeOlderBuiltImages,
} from './images.js';

export const OFFICIAL_NODE_BASE = 'node:20-bookworm-slim';
/** The node images devnet builds, tagged by a hash of their inputs. */
const NODE_IMAGE_REPOSITORY = 'chain-devnet/chain-node';
/** How many of them stay after a build: the newest, so that going back to a recent change builds nothing. */
const NODE_IMAGES_KEPT = 3;
/**
 * What the bundle leaves outside (node/scripts/bundle.mjs), and libsecp256k1's binding, which the
 * node loads at run time where it can (mempool/verifierChoice.ts): without it a node in a
 * container falls back to the pure-JS verifier, about five times slower.
 */
const OUTSIDE_THE_BUNDLE = ['classic-level', 'secp256k1'];
const BUNDLE = [
  'node/dist/bundle/chain-node.mjs',
  'node/dist/bundle/chain-node.cjs',
  'node/dist/bundle/chain-market.mjs',
  'node/dist/bundle/chain-market.cjs',
];
/** The task market's launcher in the image (node/Dockerfile): services run it (docs/MARKET.md). */
export const MARKET_IN_IMAGE = '/app/dist/bundle/chain-market.mjs';

interface LockPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
}

/** node_modules paths reached from the packages `rootDeps`, resolved as Node resolves them. */
export function reachedPackages(
  lock: { packages: Record<string, LockPackage> },
  root: string,
  rootDeps: readonly string[],
): string[] {
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

async function localNodeBase(tag: string, root: string): Promise<void> {
  const addon = join(root, 'node_modules/classic-level/prebuilds/linux-x64/classic-level.glibc.node');
  await buildHostImage(
    tag,
    [{ source: process.execPath, target: '/usr/local/bin/node' }],
    existsSync(addon) ? [addon] : [],
  );
}

/**
 * The node image of the built checkout `root` (this one by default; another version's build:
 * devnet/src/versions), built unless an image of the same inputs is there. Older images are
 * removed after a build, never one in `protect` nor one a container uses.
 */
export async function ensureNodeImage(
  progress: Progress,
  root: string = imageCheckout(),
  protect: ReadonlySet<string> = new Set(),
): Promise<string> {
  const caches = (await readdir(join(root, 'node/dist/bundle')).catch(() => []))
    .filter((f) => /^chain-(node|market)\./.test(f) && f.endsWith('.v8cache'))
    .map((f) => `node/dist/bundle/${f}`);
  const missing =
    BUNDLE.find((f) => !existsSync(join(root, f))) ??
    (caches.length === 0 ? 'node/dist/bundle/chain-node.<hash>.v8cache' : undefined);
  if (missing !== undefined)
    throw new DevnetError(
      'IMAGE_BUILD',
      `the node is not built (${join(root, missing)} is missing): run npm install && npm run build${root === checkoutRoot() ? '' : ` in ${root}`}`,
    );
  const base = await ensureImage(
    OFFICIAL_NODE_BASE,
    `chain-devnet/node-base:${process.versions.node}`,
    () => localNodeBase(`chain-devnet/node-base:${process.versions.node}`, root),
    progress,
  );
  const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockPackage>;
  };
  const packages = reachedPackages(lock, root, OUTSIDE_THE_BUNDLE);
  const hash = createHash('sha256');
  hash
    .update(base)
    .update('\0')
    .update(await readFile(join(root, 'node/Dockerfile')));
  hash
    .update(await readFile(join(root, 'package.json')))
    .update(await readFile(join(root, 'package-lock.json')));
  for (const f of BUNDLE) hash.update(await readFile(join(root, f)));
  const tag = `${NODE_IMAGE_REPOSITORY}:${hash.digest('hex').slice(0, 16)}`;
  const kept = new Set([...protect, tag]);
  const built = await buildOnce(tag, {
    exists: () => imageExists(tag),
    onWait: () => progress(`another devnet builds the node image ${tag}; waiting for it`),
    build: async () => {
      progress(`building the node image ${tag} (${packages.length} packages, FROM ${base})`);
      await buildFromFolder(root, tag, {
        progress,
        dockerfile: 'node/Dockerfile',
        buildargs: { BASE_IMAGE: base },
        // A package folder holds its nested node_modules already: list only the outermost ones.
        entries: [
          'package.json',
          'node/Dockerfile',
          ...BUNDLE,
          ...caches,
          ...packages.filter((p) => !packages.some((q) => p.startsWith(`${q}/node_modules/`))),
        ],
      });
    },
  });
  if (!built) return tag;
  const removed = await removeOlderBuiltImages(NODE_IMAGE_REPOSITORY, NODE_IMAGES_KEPT, kept);
  if (removed.length > 0)
    progress(
      `removed ${removed.length} older node image(s), ${NODE_IMAGES_KEPT} kept: ${removed.join(', ')}`,
    );
  return tag;
}
