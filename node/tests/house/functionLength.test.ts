/**
 * The house rule beside the file guard (docs/ARCHITECTURE.md, "Guards"; issue 40): no function of
 * any package's sources over MAX_FUNCTION_LINES lines, from its head to its closing brace (nested
 * callbacks included, as ESLint's max-lines-per-function counts), unless it is listed below with
 * why it is one long function. A file limit alone invited trimming files to 399 lines while their
 * functions grew; a long function is split by the kind of thing it handles (as chain/execute is by
 * rule). The list may not hold a function that is no longer long or no longer there. The scanner
 * (functionLengths.ts) is checked on made-up sources first, so the guard cannot pass by seeing
 * nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { functionSpans } from './functionLengths.js';
import { sourceFiles } from './importGraph.js';
import { ROOT, SOURCES } from './sources.js';

export const MAX_FUNCTION_LINES = 80;

/** The long functions, by file and name, each with the reason it stays one function. */
const LONG_FUNCTIONS: readonly { readonly file: string; readonly name: string; readonly why: string }[] = [
  {
    file: 'node/src/metrics/metrics.ts',
    name: 'createMetrics',
    why: 'the one place every metric of the node is declared: a table, one metric after another, each with its help text',
  },
  {
    file: 'devnet/src/k8s/k8sManifests.ts',
    name: 'k8sObjects',
    why: 'the Kubernetes objects of a devnet as one template: data, read top to bottom like the YAML it becomes',
  },
];

const posix = (p: string) => p.split('\\').join('/');

describe('house rules: function length', () => {
  it('the scanner measures functions, methods and arrows, and nothing in strings, comments or control statements', () => {
    const text = [
      'export function a(x: number): Promise<{ y: string }> {', //  1
      '  if (x > 0) {', //                                          2
      // A template literal with a placeholder (split so that no string here holds one).
      `    const s = \`{ $${'{'}x} } {\`; // } {`, //                  3
      '  }', //                                                       4
      '  const re = /[{}]/g; const q = b[0]! / 2;', //               5
      '  return f((v) => {', //                                       6
      '    return v;', //                                              7
      '  });', //                                                     8
      '}', //                                                         9
      'class C {', //                                                10
      '  method<T>(t: T): T {', //                                   11
      '    while (true) { return t; }', //                           12
      '  }', //                                                      13
      '}', //                                                        14
      'const arrow = async (z: string): Promise<void> => {', //      15
      '  /* { */', //                                                16
      '};', //                                                       17
    ].join('\n');
    assert.deepEqual(
      functionSpans(text).map((f) => [f.name, f.startLine, f.endLine]),
      [
        ['a', 1, 9],
        ['(anonymous)', 6, 8],
        ['method', 11, 13],
        ['arrow', 15, 17],
      ],
    );
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines unless listed with its reason`, () => {
    const long = SOURCES.flatMap((folder) => sourceFiles(join(ROOT, folder))).flatMap((path) => {
      const file = posix(relative(ROOT, path));
      return functionSpans(readFileSync(path, 'utf8'))
        .filter((f) => f.lines > MAX_FUNCTION_LINES)
        .map((f) => ({ file, name: f.name, lines: f.lines }));
    });
    const unlisted = long.filter((f) => !LONG_FUNCTIONS.some((l) => l.file === f.file && l.name === f.name));
    assert.deepEqual(
      unlisted.map((f) => `${f.file}: ${f.name} (${f.lines} lines)`),
      [],
      `split these by the kind of thing they handle, or list one with why it stays whole`,
    );
    const stale = LONG_FUNCTIONS.filter((l) => !long.some((f) => f.file === l.file && f.name === l.name));
    assert.deepEqual(stale, [], 'listed as long, but no longer long (or gone): take them off the list');
    for (const l of LONG_FUNCTIONS) assert.ok(l.why.length > 20, `${l.file} ${l.name}: say why`);
  });
});
