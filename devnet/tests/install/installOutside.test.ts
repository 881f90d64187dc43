/**
 * The testkit installed in a chain team's project outside this repository (docs/TESTKIT.md,
 * "Installing the testkit in your project"): the packages packed as `npm run pack` packs them,
 * installed from their tarballs by `npm install` into a project in the temp folder (the
 * registry's packages from the npm cache where it has them), with no path into this repository
 * and nothing of its node_modules. A testkit test in TypeScript there type-checks against the
 * packages' own types (this repository's TypeScript compiler) and passes under `node --test`:
 * a 2-validator devnet makes blocks and confirms a transfer, on the process runtime, which the
 * devnet installed as a package chooses by itself (it builds the node image only from a checkout).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import { repoRoot } from '../../src/base/repo.js';
import { cleanEnv, NPM_INSTALL, run } from './npm.js';
import { writeScratchProject } from './scratchProject.js';

const ROOT = repoRoot();
const PACKAGES = ['kit', 'node', 'devnet'] as const;

/** Every file of `dir` below it, as relative paths. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/**
 * Every path the devnet's code reads inside the packages at run time: the calls of repo.ts's
 * helpers with literal parts, from the sources, so that a file the code starts to read is
 * checked without this test knowing of it.
 */
function runtimePaths(): { helper: string; parts: string[]; where: string }[] {
  const out: { helper: string; parts: string[]; where: string }[] = [];
  const src = join(ROOT, 'devnet', 'src');
  for (const f of filesBelow(src).filter((f) => f.endsWith('.ts') && f !== join('base', 'repo.ts'))) {
    const text = readFileSync(join(src, f), 'utf8');
    for (const m of text.matchAll(/\b(nodePackagePath|devnetPackagePath|dashboardsPath)\(([^)]*)\)/g)) {
      const parts = [...m[2]!.matchAll(/'([^']*)'/g)].map((p) => p[1]!);
      out.push({ helper: m[1]!, parts, where: f });
    }
  }
  return out;
}

describe('the testkit installed in a project outside this repository', { timeout: 600_000 }, () => {
  let dir = '';
  let project = '';
  let home = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'install-outside-'));
    project = join(dir, 'project');
    home = join(dir, 'devnet');
    const packs = join(dir, 'packages');
    await mkdir(packs);
    // As `npm run pack` does, from this checkout's build (npm test builds first).
    await run(
      'npm',
      ['pack', ...PACKAGES.flatMap((p) => ['--workspace', p]), '--pack-destination', packs],
      ROOT,
    );
    await writeScratchProject(project);
    const types = createRequire(import.meta.url)('@types/node/package.json') as { version: string };
    const tarballs = readdirSync(packs).map((f) => join(packs, f));
    assert.equal(tarballs.length, PACKAGES.length, tarballs.join(', '));
    await run('npm', [...NPM_INSTALL, ...tarballs, `@types/node@${types.version}`], project);
  });
  after(async () => {
    // The test's own teardown failed or never ran: take the devnet down by its home.
    if (existsSync(home))
      await runProgram({
        command: join(project, 'node_modules', '.bin', 'devnet'),
        args: ['down', '--home', home],
        env: cleanEnv(),
      });
    await rm(dir, { recursive: true, force: true });
  });

  it('installs the packages themselves, not links into this repository', () => {
    for (const p of PACKAGES) {
      const installed = join(project, 'node_modules', '@chain-devnet', p);
      assert.equal(realpathSync(installed), installed, `${installed} is a link`);
    }
    const lock = readFileSync(join(project, 'package-lock.json'), 'utf8');
    assert.ok(!lock.includes(ROOT), `the project's lock names ${ROOT}`);
  });

  it('carries every file the devnet reads inside the packages at run time', () => {
    const base = {
      nodePackagePath: join(project, 'node_modules', '@chain-devnet', 'node'),
      devnetPackagePath: join(project, 'node_modules', '@chain-devnet', 'devnet'),
      dashboardsPath: join(project, 'node_modules', '@chain-devnet', 'devnet', 'dist', 'dashboards'),
    } as Record<string, string>;
    const paths = runtimePaths();
    assert.ok(paths.some((p) => p.helper === 'dashboardsPath') && paths.length >= 5, JSON.stringify(paths));
    const missing = paths
      .filter((p) => !existsSync(join(base[p.helper]!, ...p.parts)))
      .map((p) => `${p.where}: ${p.helper}(${p.parts.join(', ')})`);
    assert.deepEqual(missing, []);
    for (const f of ['json/chain-overview.json', 'provisioning/dashboards/chain.yml'])
      assert.ok(existsSync(join(base.dashboardsPath!, f)), f);
    assert.ok(existsSync(join(base.nodePackagePath!, 'Dockerfile')));
  });

  it('links the commands: npx devnet --help answers in the project', async () => {
    const { stdout } = await run('npx', ['--no', '--', 'devnet', '--help'], project);
    assert.match(stdout, /^devnet — /);
  });

  it('a testkit test in TypeScript type-checks against the packed types and passes', async () => {
    await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project);
    const r = await runProgram({
      args: ['--test', '--test-reporter=spec', 'dist/'],
      cwd: project,
      env: cleanEnv({
        SCRATCH_HOME: home,
        TESTKIT_REGISTRY: join(dir, 'registry'),
        TESTKIT_LOGS_DIR: join(dir, 'logs'),
      }),
      timeoutMs: 300_000,
    });
    assert.equal(r.code, 0, `${r.stdout.slice(-6_000)}\n${r.stderr.slice(-2_000)}`);
    assert.match(r.stdout, /✔ two validators make blocks and confirm a transfer/);
    assert.match(r.stdout, /ℹ pass 1\n/);
    assert.match(r.stdout, /devnet up on process \(installed as a package/);
  });
});
