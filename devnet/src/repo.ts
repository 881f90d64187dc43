/**
 * Where the repository is, for the files the devnet takes from it (the node's bundle and
 * Dockerfile, dashboards, compose files): the nearest folder above this module holding a
 * package.json. It holds from any file of the repository, compiled (dist/devnet/src/…) or bundled
 * (dist/bundle/devnet.cjs, whose import.meta.url the bundler derives from its own path).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRoot(): string {
  const from = fileURLToPath(import.meta.url);
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
}

export function repoPath(...parts: string[]): string {
  return join(repoRoot(), ...parts);
}
