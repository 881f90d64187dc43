/**
 * From a node's version (source.ts) to the chain-node it runs (runtime.ts NodeBuild), in two
 * steps: `pinVersion` (cheap, at `up` and `upgrade`, before anything starts) checks it and
 * writes it so that it means the same later (a git ref as its commit, a path made absolute);
 * `nodeBuild` finds or makes the build (a git commit built once into the cache by the node
 * package's builder, @chain-devnet/node/harness gitBuild). An image is looked for by the runtime
 * that runs it (docker, swarm).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CHAIN_NODE_PROGRAMS,
  chainNodeProgram,
  GitBuildError,
  gitBuild,
  resolveCommit,
} from '@chain-devnet/node/harness';
import { DevnetError } from '../errors.js';
import { checkoutRoot } from '../repo.js';
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

/** The version checked and written to mean the same later; BAD_VERSION names `field` and what is wrong. */
export async function pinVersion(text: string, field: string): Promise<string> {
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

/** The chain-node of a pinned version, built now when it is a git commit not built before. */
export async function nodeBuild(pinned: string, progress: Progress): Promise<NodeBuild> {
  const v = parsed(pinned, 'version');
  switch (v.kind) {
    case 'checkout':
      return { kind: 'checkout', version: pinned };
    case 'git':
      return {
        kind: 'built',
        root: await translated(() =>
          gitBuild({ root: requireCheckout(v.ref), ref: v.ref, commit: v.ref, progress }),
        ),
        version: pinned,
      };
    case 'path':
      return { kind: 'built', root: v.dir, version: pinned };
    case 'image':
      return { kind: 'image', image: v.image, version: pinned };
  }
}

/** A version for people: a commit shortened to 12 digits. */
export function shortVersion(pinned: string): string {
  return pinned.replace(/^git:([0-9a-f]{12})[0-9a-f]{28}$/, 'git:$1');
}
