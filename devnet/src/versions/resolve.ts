/**
 * From a node's version (source.ts) to the chain-node it runs (runtime.ts NodeBuild), in two
 * steps: `pinVersion` (cheap, at `up` and `upgrade`, before anything starts) checks it and
 * writes it so that it means the same later (a git ref as its commit, a path made absolute);
 * `nodeBuild` finds or makes the build (a git commit built once into the cache). An image is
 * looked for by the runtime that runs it (docker, swarm).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DevnetError } from '../errors.js';
import { gitBuild, resolveCommit } from './gitBuild.js';
import { formatVersion, type NodeBuild, type Progress, parseVersion, type VersionSource } from './source.js';

/** Where a built checkout keeps the chain-node program: the bundle, else the compiled bin. */
export const CHAIN_NODE_PROGRAMS = ['node/dist/bundle/chain-node.mjs', 'node/dist/src/bin/chain-node.js'];

/** The chain-node program of a built checkout, or null when it has none. */
export function chainNodeProgram(root: string): string | null {
  return CHAIN_NODE_PROGRAMS.map((p) => resolve(root, p)).find((p) => existsSync(p)) ?? null;
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
        return formatVersion({ kind: 'git', ref: await resolveCommit(v.ref) });
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
      return { kind: 'built', root: await gitBuild(v.ref, v.ref, progress), version: pinned };
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
