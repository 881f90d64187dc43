/**
 * From a node's version (source.ts) to the chain-node it runs (runtime.ts NodeBuild), in two
 * steps: `pinVersion` (cheap, at `up` and `upgrade`, before anything starts) checks it and
 * writes it so that it means the same later (a git ref as its commit, a path made absolute);
 * `nodeBuild` finds or makes the build (a git commit built once into the cache by the node
 * package's builder, @chain-devnet/node/builds gitBuild). An image is looked for by the runtime
 * that runs it (docker, swarm).
 */
import { existsSync, realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import {
  CHAIN_NODE_PROGRAMS,
  chainNodeProgram,
  GitBuildError,
  gitBuild,
  resolveCommit,
} from '@chain-devnet/node/builds';
import { DevnetError } from '../base/errors.js';
import { checkoutRoot } from '../base/repo.js';
import { formatVersion, type NodeBuild, type Progress, parseVersion, type VersionSource } from './source.js';

function requireCheckout(ref: string): string {
  const root = checkoutRoot();
  if (root === null)
    throw new DevnetError(
      'BAD_VERSION',
      `git:${ref}: git versions are built from a checkout of the chain devnet repository; installed as a package, name a built checkout with path:DIR`,
    );
  return root;
}

/** The builder's errors as the devnet's: a ref it cannot build is a BAD_VERSION, a failed build an IMAGE_BUILD. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof GitBuildError)) throw e;
    throw new DevnetError(e.code === 'BUILD_FAILED' ? 'IMAGE_BUILD' : 'BAD_VERSION', e.message);
  }
}

function parsed(text: string, field: string): VersionSource {
  const v = parseVersion(text);
  if ('problem' in v) throw new DevnetError('BAD_VERSION', `${field}: ${v.problem}`);
  return v;
}

/** A full commit hash: the one form of a git version that is pinned (resolveCommit wrote it). */
const COMMIT = /^[0-9a-f]{40}$/;

/** Where a version may not point: the devnet's home, where archives write (`up --from`). */
export interface VersionBounds {
  readonly outside?: string;
}

/** The real path of `p`, or of the deepest folder of it that exists (a path not made yet). */
function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const up = resolve(p, '..');
    return up === p ? p : resolve(realPath(up), relative(up, p));
  }
}

/** Whether `dir` is `root` or inside it, symlinks followed. */
function inside(dir: string, root: string): boolean {
  const rel = relative(realPath(root), realPath(dir));
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

/**
 * A path version into the devnet's own home is refused: what lives there an archive may have
 * written (`up --from`), and nothing an archive wrote is ever run.
 */
function refuseInsideHome(dir: string, field: string, b: VersionBounds): void {
  if (b.outside !== undefined && inside(dir, b.outside))
    throw new DevnetError(
      'BAD_VERSION',
      `${field}: path ${dir} is inside the devnet's home ${b.outside}: a node never runs a program from there (an archive may have written it); name a built checkout elsewhere`,
    );
}

/**
 * The version checked and written to mean the same later; BAD_VERSION names `field` and what is
 * wrong. `bounds.outside`: a home a path version must not point into.
 */
export async function pinVersion(text: string, field: string, bounds: VersionBounds = {}): Promise<string> {
  const v = parsed(text, field);
  switch (v.kind) {
    case 'git':
      try {
        return formatVersion({
          kind: 'git',
          ref: await translated(() => resolveCommit(requireCheckout(v.ref), v.ref)),
        });
      } catch (e) {
        if (e instanceof DevnetError) throw new DevnetError(e.code, `${field}: ${e.message}`);
        throw e;
      }
    case 'path': {
      const dir = resolve(v.dir);
      refuseInsideHome(dir, field, bounds);
      if (!existsSync(dir)) throw new DevnetError('BAD_VERSION', `${field}: path ${dir} does not exist`);
      if (chainNodeProgram(dir) === null)
        throw new DevnetError(
          'BAD_VERSION',
          `${field}: path ${dir} is not a chain-node build (neither ${CHAIN_NODE_PROGRAMS.join(' nor ')} is there): name a checkout of this repository after npm install && npm run build`,
        );
      return formatVersion({ kind: 'path', dir });
    }
    default:
      return formatVersion(v);
  }
}

/**
 * The chain-node of a pinned version, built now when it is a git commit not built before. A git
 * version must be pinned (a full commit hash: the build cache's folder is named by it), and a
 * path version must lie outside `bounds.outside`, however devnet.json came to name it.
 */
export async function nodeBuild(
  pinned: string,
  progress: Progress,
  bounds: VersionBounds = {},
): Promise<NodeBuild> {
  const v = parsed(pinned, 'version');
  switch (v.kind) {
    case 'checkout':
      return { kind: 'checkout', version: pinned };
    case 'git':
      if (!COMMIT.test(v.ref))
        throw new DevnetError(
          'BAD_VERSION',
          `${pinned}: not a pinned version (a git version is kept as its full commit hash); was devnet.json edited?`,
        );
      return {
        kind: 'built',
        root: await translated(() =>
          gitBuild({ root: requireCheckout(v.ref), ref: v.ref, commit: v.ref, progress }),
        ),
        version: pinned,
      };
    case 'path':
      refuseInsideHome(v.dir, pinned, bounds);
      return { kind: 'built', root: v.dir, version: pinned };
    case 'image':
      return { kind: 'image', image: v.image, version: pinned };
  }
}

/** A version for people: a commit shortened to 12 digits. */
export function shortVersion(pinned: string): string {
  return pinned.replace(/^git:([0-9a-f]{12})[0-9a-f]{28}$/, 'git:$1');
}
