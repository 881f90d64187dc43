/**
 * Where the files the devnet takes from outside its own code are:
 *   - the repository (the npm workspace root: dashboards, compose files, package-lock.json and
 *     node_modules for the node image's context): the nearest folder above this module whose
 *     package.json declares workspaces. It holds from compiled code (devnet/dist/src/…) and from
 *     the bundle (devnet/dist/bundle/devnet.cjs, whose import.meta.url the bundler derives from
 *     its own path).
 *   - the node package (its bundle, compiled bin and Dockerfile): resolved as Node resolves
 *     `@chain-devnet/node`, through its exported package.json.
 *   - this package (the devnet command that starts the panel, the panel's page): resolved the
 *     same way, by its own name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
