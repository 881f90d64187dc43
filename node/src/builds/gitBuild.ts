/**
 * A git ref of a checkout of this repository built once into the build cache (DEVNET_BUILD_CACHE,
 * else $XDG_CACHE_HOME/chain-devnet/builds, else ~/.cache/chain-devnet/builds), one folder per
 * commit: the commit's files (git archive), its dependencies (the checkout's node_modules copied
 * when its package-lock.json is the commit's, else `npm ci --prefer-offline`), then its own `npm
 * run build`. Built in <commit>.tmp and renamed when done, under a lock (fileLock.ts): a build cut
 * short is never taken for one, and two builders (devnets, tests) never build one commit twice.
 * Later uses find the folder and build nothing. The one builder of older builds: the devnet's
 * `git:REF` versions and the node's tests that run an older build (OLDER_COMMIT) both use it.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { runProgram, withFileLock } from '@chain-devnet/kit/process';

/**
 * The older commit of this repository that the tests needing a real older build run (node tests,
 * the devnet's version and auto-upgrade tests, the e2e upgrade rehearsal): the last commit of
 * issue 28's node side without a migration (node_version 0.1.0, protocol 1.0.0 only: it halts at
 * a plan to 1.1.0). One commit, so that a fresh machine (CI) builds one.
 */
export const OLDER_COMMIT = '69603f958298157b17f24ed855cd181d698ee4ab';

/** Written last into a finished build: what it is, and how long it took. */
export const BUILD_MARKER = '.chain-devnet-build.json';
const BUILD_TIMEOUT_MS = 15 * 60_000;

/**
 * Why a git ref gives no build: NO_GIT (no git program here), BAD_REF (the checkout has no such
 * commit), BUILD_FAILED (a step of the build failed; its output's telling lines in the message).
 */
export type GitBuildErrorCode = 'NO_GIT' | 'BAD_REF' | 'BUILD_FAILED';

export class GitBuildError extends Error {
  override readonly name = 'GitBuildError';
  constructor(
    readonly code: GitBuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Where finished builds are kept, one folder per commit. */
export function buildCacheDir(): string {
  const env = process.env.DEVNET_BUILD_CACHE;
  if (env !== undefined && env !== '') return env;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'chain-devnet', 'builds');
}

/** The full hash of the commit `ref` names in the checkout `root`; BAD_REF when it names none. */
export async function resolveCommit(root: string, ref: string): Promise<string> {
  const r = await runProgram({
    command: 'git',
    args: ['-C', root, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    timeoutMs: 30_000,
  });
  if (/\bspawn git ENOENT\b/.test(r.stderr))
    throw new GitBuildError(
      'NO_GIT',
      `git:${ref}: git is needed to find and build a commit, and there is no git program here (on PATH): install git`,
    );
  const hash = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40}$/.test(hash))
    throw new GitBuildError(
      'BAD_REF',
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
    throw new GitBuildError('BUILD_FAILED', `${what} failed (exit ${r.code}):\n  ${shown.join('\n  ')}`);
  }
}

const NPM_QUIET = ['--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];

/**
 * The commit's dependencies as its lock says (npm ci); a commit whose lock is out of step with its
 * package.json (npm ci refuses it: such commits exist in a history) gets npm install instead.
 */
async function installDependencies(tmp: string, progress: (line: string) => void): Promise<void> {
  progress("  its package-lock.json differs from this checkout's: npm ci --prefer-offline");
  try {
    await run('npm ci', 'npm', ['ci', ...NPM_QUIET], tmp);
  } catch (e) {
    if (
      !(e instanceof GitBuildError) ||
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

export interface GitBuildOptions {
  /** The checkout of this repository the commit is taken from (its git, its node_modules). */
  readonly root: string;
  /** The ref as it was named (for messages). */
  readonly ref: string;
  /** Its full hash (resolveCommit). */
  readonly commit: string;
  /** Where the build's steps are said; default: nowhere. */
  readonly progress?: (line: string) => void;
}

/** The build of `commit`: its folder in the cache, built now unless it was before. */
export async function gitBuild(o: GitBuildOptions): Promise<string> {
  const { root, ref, commit } = o;
  // The cache's folder is named by the commit: anything but a full hash could name another folder.
  if (!/^[0-9a-f]{40}$/.test(commit))
    throw new GitBuildError(
      'BAD_REF',
      `git:${ref}: ${JSON.stringify(commit.slice(0, 80))} is not a full commit hash`,
    );
  const progress = o.progress ?? (() => undefined);
  const cache = buildCacheDir();
  const dir = join(cache, commit);
  if (existsSync(join(dir, BUILD_MARKER))) return dir;
  await mkdir(cache, { recursive: true });
  return withFileLock(
    join(cache, `${commit}.lock`),
    {
      what: `the build lock of ${commit.slice(0, 12)} (another devnet builds this commit)`,
      timeoutMs: BUILD_TIMEOUT_MS,
      pollMs: 250,
      onWait: () => progress(`git:${ref}: another devnet is building ${commit.slice(0, 12)}; waiting for it`),
    },
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

/** A built checkout's compiled chain-node, relative to the checkout. */
export const COMPILED_CHAIN_NODE = 'node/dist/src/bin/chain-node.js';
/** Where a built checkout keeps the chain-node program: the bundle, else the compiled bin. */
export const CHAIN_NODE_PROGRAMS = ['node/dist/bundle/chain-node.mjs', COMPILED_CHAIN_NODE];

/** The chain-node program of a built checkout (a build of the cache, a path:DIR), or null when it has none. */
export function chainNodeProgram(root: string): string | null {
  return CHAIN_NODE_PROGRAMS.map((p) => resolve(root, p)).find((p) => existsSync(p)) ?? null;
}
