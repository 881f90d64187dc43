/**
 * A git ref of this repository built once into the build cache (DEVNET_BUILD_CACHE, else
 * $XDG_CACHE_HOME/chain-devnet/builds, else ~/.cache/chain-devnet/builds), one folder per commit:
 * the commit's files (git archive), its dependencies (this checkout's node_modules copied when its
 * package-lock.json is the commit's, else `npm ci --prefer-offline`), then its own `npm run
 * build`. Built in <commit>.tmp and renamed when done, under a lock (buildLock.ts): a build cut
 * short is never taken for one, and two devnets never build one commit twice. Later uses find
 * the folder and build nothing.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runProgram } from '@chain-devnet/node/harness';
import { DevnetError } from '../errors.js';
import { checkoutRoot } from '../repo.js';
import { withBuildLock } from './buildLock.js';
import type { Progress } from './source.js';

/** Written last into a finished build: what it is, and how long it took. */
export const BUILD_MARKER = '.chain-devnet-build.json';
const BUILD_TIMEOUT_MS = 15 * 60_000;

export function buildCacheDir(): string {
  const env = process.env.DEVNET_BUILD_CACHE;
  if (env !== undefined && env !== '') return env;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'chain-devnet', 'builds');
}

function requireCheckout(ref: string): string {
  const root = checkoutRoot();
  if (root === null)
    throw new DevnetError(
      'BAD_VERSION',
      `git:${ref}: git versions are built from a checkout of the chain devnet repository; installed as a package, name a built checkout with path:DIR`,
    );
  return root;
}

/** The full hash of the commit `ref` names in this checkout; BAD_VERSION when it names none. */
export async function resolveCommit(ref: string): Promise<string> {
  const root = requireCheckout(ref);
  const r = await runProgram({
    command: 'git',
    args: ['-C', root, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    timeoutMs: 30_000,
  });
  const hash = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40}$/.test(hash))
    throw new DevnetError(
      'BAD_VERSION',
      `git:${ref}: no commit of that name in ${root} (a branch, tag or hash of this repository; git fetch it first if it is elsewhere)`,
    );
  return hash;
}

async function run(what: string, command: string, args: string[], cwd: string): Promise<void> {
  const r = await runProgram({ command, args, cwd, timeoutMs: BUILD_TIMEOUT_MS });
  if (r.code !== 0) {
    // npm's reason comes first (its usage text after it); a build's last.
    const lines = `${r.stderr}\n${r.stdout}`
      .split('\n')
      .filter((l) => l.trim() !== '' && l.trim() !== 'npm error' && !l.startsWith('npm warn'));
    const shown = command === 'npm' ? lines.slice(0, 12) : lines.slice(-15);
    throw new DevnetError('IMAGE_BUILD', `${what} failed (exit ${r.code}):\n  ${shown.join('\n  ')}`);
  }
}

const NPM_QUIET = ['--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];

/**
 * The commit's dependencies as its lock says (npm ci); a commit whose lock is out of step with its
 * package.json (npm ci refuses it: such commits exist in a history) gets npm install instead.
 */
async function installDependencies(tmp: string, progress: Progress): Promise<void> {
  progress("  its package-lock.json differs from this checkout's: npm ci --prefer-offline");
  try {
    await run('npm ci', 'npm', ['ci', ...NPM_QUIET], tmp);
  } catch (e) {
    if (
      !(e instanceof DevnetError) ||
      !/can only install packages when your package\.json and package-lock\.json/.test(e.message)
    )
      throw e;
    progress(
      '  its package-lock.json is out of step with its package.json (npm ci refuses it): npm install --prefer-offline',
    );
    await run('npm install', 'npm', ['install', ...NPM_QUIET], tmp);
  }
}

async function sameLock(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([readFile(a).catch(() => null), readFile(b).catch(() => null)]);
  return x !== null && y !== null && x.equals(y);
}

/** The build of `commit` (a full hash from resolveCommit): its folder, built now unless it was before. */
export async function gitBuild(ref: string, commit: string, progress: Progress): Promise<string> {
  const root = requireCheckout(ref);
  const cache = buildCacheDir();
  const dir = join(cache, commit);
  if (existsSync(join(dir, BUILD_MARKER))) return dir;
  await mkdir(cache, { recursive: true });
  return withBuildLock(
    join(cache, `${commit}.lock`),
    BUILD_TIMEOUT_MS,
    () => progress(`git:${ref}: another devnet is building ${commit.slice(0, 12)}; waiting for it`),
    async () => {
      if (existsSync(join(dir, BUILD_MARKER))) return dir;
      const began = Date.now();
      progress(`git:${ref}: building commit ${commit.slice(0, 12)} once into ${dir} (later uses reuse it)`);
      const tmp = `${dir}.tmp`;
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp, { recursive: true });
      await run(
        `git archive ${commit.slice(0, 12)}`,
        '/bin/sh',
        ['-c', 'git -C "$1" archive --format=tar "$2" | tar -x -C "$3"', 'sh', root, commit, tmp],
        tmp,
      );
      if (await sameLock(join(root, 'package-lock.json'), join(tmp, 'package-lock.json'))) {
        progress(`  its package-lock.json is this checkout's: copying node_modules`);
        // Workspace links in node_modules are relative: in the copy they lead to the commit's packages.
        await run('copying node_modules', 'cp', ['-a', join(root, 'node_modules'), tmp], tmp);
      } else await installDependencies(tmp, progress);
      progress('  npm run build');
      await run('npm run build', 'npm', ['run', 'build'], tmp);
      const seconds = (Date.now() - began) / 1000;
      await writeFile(
        join(tmp, BUILD_MARKER),
        `${JSON.stringify({ ref, commit, built_at: new Date().toISOString(), seconds }, null, 2)}\n`,
      );
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
      progress(`git:${ref}: built in ${seconds.toFixed(1)} s`);
      return dir;
    },
  );
}
