/**
 * Where the files the devnet takes from outside its own code are:
 *   - the node package (its bundle, compiled bin and Dockerfile): resolved as Node resolves
 *     `@chain-devnet/node`, through its exported package.json.
 *   - this package (the devnet command that starts the panel, the panel's page, the Grafana
 *     dashboards and provisioning the build copies into dist/dashboards): resolved the same way,
 *     by its own name. Both hold in this repository and where the packages are installed.
 *   - the repository (the npm workspace root: compose files, package-lock.json and node_modules
 *     for the node image's context): the nearest folder above this module whose package.json
 *     declares workspaces. It holds from compiled code (devnet/dist/src/…) and from the bundle
 *     (devnet/dist/bundle/devnet.cjs, whose import.meta.url the bundler derives from its own
 *     path). Only a checkout has it (checkoutRoot): the packages installed elsewhere do not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DevnetError } from './errors.js';

function declaresWorkspaces(packageJson: string): boolean {
  try {
    return 'workspaces' in (JSON.parse(readFileSync(packageJson, 'utf8')) as object);
  } catch {
    return false;
  }
}

export function repoRoot(): string {
  const from = fileURLToPath(import.meta.url);
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && declaresWorkspaces(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json declaring workspaces above ${from}`);
    dir = up;
  }
}

/**
 * The checkout of this repository the devnet runs from, or null where the packages are installed
 * in another project: there the nearest workspace root (if any) is that project's, and the node
 * package is not its `node` workspace.
 */
export function checkoutRoot(): string | null {
  let root: string;
  try {
    root = repoRoot();
  } catch {
    return null;
  }
  return nodePackagePath() === join(root, 'node') ? root : null;
}

/**
 * The checkout the node image is built from (the docker and swarm runtimes): its context is the
 * repository's node_modules and lock. The packages installed elsewhere run the process runtime.
 */
export function imageCheckout(): string {
  const root = checkoutRoot();
  if (root === null)
    throw new DevnetError(
      'IMAGE_BUILD',
      'the docker and swarm runtimes build the node image from a checkout of the chain devnet repository ' +
        '(npm install there); installed as a package, the devnet runs its nodes as local processes (--runtime process)',
    );
  return root;
}

export function repoPath(...parts: string[]): string {
  return join(repoRoot(), ...parts);
}

/** A path inside the installed @chain-devnet/node package. */
export function nodePackagePath(...parts: string[]): string {
  const pkg = createRequire(import.meta.url).resolve('@chain-devnet/node/package.json');
  return join(dirname(pkg), ...parts);
}

/** A path inside this package, @chain-devnet/devnet. */
export function devnetPackagePath(...parts: string[]): string {
  const pkg = createRequire(import.meta.url).resolve('@chain-devnet/devnet/package.json');
  return join(dirname(pkg), ...parts);
}

/**
 * The devnet command as people run it (npm's bin, the bundle with its launcher): what its own
 * detached processes run (the panel's `ui --serve`, the supervisor, the threads runtime's host).
 */
export function devnetProgram(): string {
  return devnetPackagePath('dist', 'bundle', 'devnet.mjs');
}

/** A path inside the Grafana dashboards and provisioning this package carries (scripts/dashboards.mjs). */
export function dashboardsPath(...parts: string[]): string {
  return devnetPackagePath('dist', 'dashboards', ...parts);
}
