/**
 * The house rules of docs/ARCHITECTURE.md ("Guards"), checked on the sources of every package:
 * no import cycle between files (type-only imports included), none between folders, the node's
 * rooms with a face (index.ts) reached only through it, and no source file over 400 lines unless
 * its first line says why (it then starts with `// long: <why>`, and the list below names it, so
 * a new long file is a decision someone made).
 * The guard is tested on graphs and files made to break each rule, so it cannot pass by looking
 * at nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { cycles, folderGraph, importGraph, pastFace, relativeImports, sourceFiles } from './importGraph.js';
import { ROOT, SOURCES } from './sources.js';

const MAX_LINES = 400;
/** Files allowed past MAX_LINES; each says why in its first line (`// long: …`). */
const LONG_FILES: readonly string[] = [];
/** The node's rooms that other rooms reach only through their index.ts (their tests import the files they test): the chain rules' public face is chain/index.ts (the market reached its encoding and reserved addresses, p2p a snapshot bound, past it). */
const FACES = ['node/src/chain', 'node/src/sync', 'node/src/privval'];

/** Lines as `wc -l` counts them (a final newline ends the last line, it starts none). */
const lineCount = (path: string) => {
  const text = readFileSync(path, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

describe('house rules: cycles and file sizes', () => {
  for (const folder of SOURCES) {
    const files = importGraph(ROOT, folder);

    it(`${folder}: no import cycle between files (type imports included)`, () => {
      assert.deepEqual(cycles(files), [], 'files that import each other in a circle');
    });

    it(`${folder}: no import cycle between folders`, () => {
      assert.deepEqual(cycles(folderGraph(files, folder)), [], 'folders that import each other in a circle');
    });
  }

  for (const room of FACES)
    it(`${room}: other rooms import its index.ts, never a file behind it`, () => {
      assert.deepEqual(pastFace(importGraph(ROOT, 'node/src'), room), [], 'imports past the face');
    });

  it(`no source file over ${MAX_LINES} lines unless its first line says why`, () => {
    const long = SOURCES.flatMap((folder) => sourceFiles(join(ROOT, folder)))
      .filter((f) => lineCount(f) > MAX_LINES)
      .map((f) => relative(ROOT, f).split('\\').join('/'));
    const unexplained = long.filter(
      (f) => !LONG_FILES.includes(f) || !readFileSync(join(ROOT, f), 'utf8').startsWith('// long: '),
    );
    assert.deepEqual(unexplained, [], `files over ${MAX_LINES} lines without a reason in their first line`);
  });
});

describe('house rules: the guard itself', () => {
  it('reads every kind of relative import, and nothing in comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c/index.js';",
      "export * from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "import { g } from 'node:fs';",
      "// import { h } from './h.js';",
      "/* import { i } from './i.js'; */",
    ].join('\n');
    assert.deepEqual(relativeImports(text), [
      './a.js',
      '../b.js',
      './c/index.js',
      './d.js',
      './e.js',
      './f.js',
    ]);
  });

  it('finds a cycle of files, and of folders, and none in a chain', () => {
    const ring = new Map([
      ['src/x/a.ts', ['src/y/b.ts']],
      ['src/y/b.ts', ['src/x/deep/c.ts']],
      ['src/x/deep/c.ts', ['src/root.ts']],
      ['src/root.ts', []],
    ]);
    assert.deepEqual(cycles(ring), []);
    assert.deepEqual(cycles(folderGraph(ring, 'src')), [['src/x', 'src/y']]);
    const loop = new Map([...ring, ['src/root.ts', ['src/x/a.ts']]]);
    assert.deepEqual(cycles(loop), [['src/root.ts', 'src/x/a.ts', 'src/x/deep/c.ts', 'src/y/b.ts']]);
  });

  it('sees an import past a face, and none through it or from inside', () => {
    const graph = new Map([
      ['src/a/x.ts', ['src/room/index.ts']],
      ['src/b/y.ts', ['src/room/deep/z.ts']],
      ['src/room/index.ts', ['src/room/deep/z.ts']],
      ['src/room/deep/z.ts', []],
    ]);
    assert.deepEqual(pastFace(graph, 'src/room'), ['src/b/y.ts -> src/room/deep/z.ts']);
  });

  it('builds the graph from files on disk (a cycle made in a scratch folder is found)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'house-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "import { a } from './a.js';\nexport type B = typeof a;\n");
      assert.deepEqual(cycles(importGraph(dir, '.')), [['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
