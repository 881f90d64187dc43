/**
 * The npm workspaces stay packages (docs/ARCHITECTURE.md, "Packages"): a file reaches another
 * package only by its name and through that package's `exports` (never `../../node/src/…`),
 * the layers go one way (the kit imports none of the others, the node only the kit, the devnet
 * the node and the kit, the e2e suite all three), every package a file imports is declared in its package.json (a shipped file's
 * in `dependencies`), and no compiled file outlives its source (node --test would run a stale
 * test). Biome's noRestrictedImports catches the first mistake in an editor; this test is the
 * guard that sees all of them.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  workspaces?: string[];
}

interface Pkg {
  readonly dir: string;
  readonly json: PackageJson;
}

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !('workspaces' in readJson(join(dir, 'package.json'))))
    dir = dirname(dir);
  return dir;
}

function readJson(path: string): PackageJson {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
}

const ROOT = repoRoot();
const rootJson = readJson(join(ROOT, 'package.json'));
const PACKAGES: Pkg[] = (rootJson.workspaces ?? []).map((w) => ({
  dir: join(ROOT, w),
  json: readJson(join(ROOT, w, 'package.json')),
}));
const byName = new Map(PACKAGES.map((p) => [p.json.name, p]));
/** Which workspace packages each may import: the layers, lowest first. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  '@chain-devnet/kit': [],
  '@chain-devnet/node': ['@chain-devnet/kit'],
  '@chain-devnet/devnet': ['@chain-devnet/kit', '@chain-devnet/node'],
  '@chain-devnet/e2e': ['@chain-devnet/kit', '@chain-devnet/node', '@chain-devnet/devnet'],
};
const BUILTIN = new Set(builtinModules);

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return e.name === 'node_modules' || e.name === 'dist' ? [] : files(join(dir, e.name), keep);
    return keep(e.name) ? [join(dir, e.name)] : [];
  });
}

const isSource = (name: string) => /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts');

/** Every module specifier of a file: static imports and re-exports, side-effect imports, import(). */
export function specifiersOf(text: string): string[] {
  const out: string[] = [];
  const re =
    /^\s*(?:import|export)\b[^;]*?\bfrom\s*(['"])([^'"\s]+)\1|^\s*import\s*(['"])([^'"\s]+)\3|\bimport\s*\(\s*(['"])([^'"\s]+)\5\s*\)/gm;
  for (const m of text.matchAll(re)) out.push(m[2] ?? m[4] ?? m[6]!);
  return out;
}

/** `@scope/name/sub/path` -> [`@scope/name`, `./sub/path`]; `name` -> [`name`, `.`]. */
function splitBare(spec: string): [string, string] {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(n).join('/');
  return [parts.slice(0, n).join('/'), rest === '' ? '.' : `./${rest}`];
}

/** The problems of one import in `file` of package `pkg`, or none. */
export function importProblems(pkg: Pkg, file: string, spec: string): string[] {
  const where = `${relative(ROOT, file)}: '${spec}'`;
  if (spec.startsWith('.')) {
    const target = resolve(dirname(file), spec);
    return target.startsWith(pkg.dir + sep)
      ? []
      : [`${where} reaches outside ${pkg.json.name}: import another package by its name (its exports)`];
  }
  if (spec.startsWith('node:') || BUILTIN.has(spec)) return [];
  const [name, subpath] = splitBare(spec);
  const shipped = relative(pkg.dir, file).startsWith(`src${sep}`);
  const workspace = byName.get(name);
  if (workspace !== undefined) {
    const problems: string[] = [];
    if (!(MAY_IMPORT[pkg.json.name] ?? []).includes(name))
      problems.push(`${where}: ${pkg.json.name} may not import ${name} (the layers go one way)`);
    else if (pkg.json.dependencies?.[name] === undefined)
      problems.push(`${where}: ${name} is not in the dependencies of ${pkg.json.name}`);
    if (!Object.hasOwn(workspace.json.exports ?? {}, subpath))
      problems.push(
        `${where}: ${name} does not export ${subpath} (its exports: ${Object.keys(workspace.json.exports ?? {}).join(', ')})`,
      );
    return problems;
  }
  if (pkg.json.dependencies?.[name] !== undefined) return [];
  const dev = pkg.json.devDependencies?.[name] ?? rootJson.devDependencies?.[name];
  if (dev !== undefined && !shipped) return [];
  return [
    `${where}: ${name} is not in the ${shipped ? 'dependencies' : 'dependencies or devDependencies'} of ${pkg.json.name}`,
  ];
}

describe('workspace packages', () => {
  it('are the four packages, each with exports, the kit first', () => {
    assert.deepEqual(
      PACKAGES.map((p) => p.json.name),
      ['@chain-devnet/kit', '@chain-devnet/node', '@chain-devnet/devnet', '@chain-devnet/e2e'],
    );
    for (const p of PACKAGES)
      assert.ok(Object.keys(p.json.exports ?? {}).length > 0, `${p.json.name} exports`);
  });

  it('the guard sees a deep import, a reversed layer, an unexported path and an undeclared package', () => {
    const [node, devnet] = [byName.get('@chain-devnet/node')!, byName.get('@chain-devnet/devnet')!];
    const file = join(devnet.dir, 'src', 'x', 'y.ts');
    assert.match(importProblems(devnet, file, '../../../node/src/chain/index.js').join(), /reaches outside/);
    assert.deepEqual(importProblems(devnet, file, '../../tests/helpers.js'), []);
    assert.match(
      importProblems(devnet, file, '@chain-devnet/node/src/chain/index.js').join(),
      /does not export/,
    );
    assert.deepEqual(importProblems(devnet, file, '@chain-devnet/node/chain'), []);
    assert.match(
      importProblems(node, join(node.dir, 'src', 'a.ts'), '@chain-devnet/devnet').join(),
      /may not import/,
    );
    const kit = byName.get('@chain-devnet/kit')!;
    assert.match(
      importProblems(kit, join(kit.dir, 'src', 'a.ts'), '@chain-devnet/node/chain').join(),
      /may not import/,
    );
    assert.deepEqual(importProblems(node, join(node.dir, 'src', 'a.ts'), '@chain-devnet/kit/wait'), []);
    assert.match(importProblems(devnet, file, 'left-pad').join(), /not in the dependencies/);
    assert.match(
      importProblems(node, join(node.dir, 'src', 'a.ts'), 'fast-check').join(),
      /not in the dependencies/,
    );
    assert.deepEqual(importProblems(node, join(node.dir, 'tests', 'a.test.ts'), 'fast-check'), []);
    assert.deepEqual(
      // Split so that this file's own scan does not read the example as an import.
      specifiersOf(
        ['import a from', "'x';\nexport * from './y.js';\nimport 'z';\nawait import", "('w');"].join(' '),
      ),
      ['x', './y.js', 'z', 'w'],
    );
  });

  for (const p of PACKAGES)
    it(`${p.json.name}: every import stays inside the package or goes through a declared package's exports`, () => {
      const problems = files(p.dir, isSource).flatMap((f) =>
        specifiersOf(readFileSync(f, 'utf8')).flatMap((s) => importProblems(p, f, s)),
      );
      assert.deepEqual(problems, []);
    });

  for (const p of PACKAGES)
    it(`${p.json.name}: every compiled file has its source`, () => {
      const dist = join(p.dir, 'dist');
      const stale = existsSync(dist)
        ? files(dist, (n) => n.endsWith('.js'))
            .filter((f) => !f.startsWith(join(dist, 'bundle') + sep))
            .map((f) => relative(dist, f))
            .filter((f) => !existsSync(join(p.dir, f.replace(/\.js$/, '.ts'))))
        : [];
      assert.deepEqual(
        stale,
        [],
        'compiled files whose source is gone: remove them (rm -rf */dist; npm run build)',
      );
    });
});
