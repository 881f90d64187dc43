/**
 * The lists the packages share are declared once, by the package that owns them, and imported by
 * the others: the transaction types (the node's chain rules, node/src/chain/tx/types.ts) and the
 * node operations (the devnet's, devnet/src/operations/nodeOp.ts). A copy typed again drifts: the
 * e2e suite's list of the types whose counts it checks had lost the two upgrade types (issue 40).
 * Any array literal elsewhere that names every member of a list, or all but two, is taken for a
 * copy; a list that means something else (a subset such as the load's three types, or the
 * threads host's own protocol) names fewer. The guard is tested on made-up sources too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './importGraph.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
/** Every folder of TypeScript the packages hold: sources, tests and benchmarks (e2e's are at its top). */
const FOLDERS = ['node/src', 'node/tests', 'node/bench', 'devnet/src', 'devnet/tests', 'devnet/bench', 'e2e'];
/** How many members a copy may have lost and still be one (the e2e copy had lost two of ten). */
const LOST = 2;

interface SharedList {
  readonly name: string;
  readonly owner: string;
}

const LISTS: readonly SharedList[] = [
  { name: 'TX_TYPES', owner: 'node/src/chain/tx/types.ts' },
  { name: 'NODE_OPS', owner: 'devnet/src/operations/nodeOp.ts' },
];

const strings = (text: string) => [...text.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((m) => m[1] ?? m[2]!);

/** The members of `export const NAME = [ … ] as const` in the owner's source. */
function declaredMembers(source: string, name: string): string[] {
  const m = new RegExp(`export const ${name} = \\[([^\\]]*)\\] as const`).exec(source);
  assert.ok(m !== null, `no "export const ${name} = [...] as const" found`);
  return strings(m[1]!);
}

/** The line of each array literal in `text` that names all of `members`, or all but LOST of them. */
function copiesIn(text: string, members: readonly string[]): number[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
  const lines: number[] = [];
  for (const m of code.matchAll(/\[([^[\]]*)\]/g)) {
    const named = new Set(strings(m[1]!).filter((s) => members.includes(s)));
    if (named.size >= members.length - LOST) lines.push(code.slice(0, m.index).split('\n').length);
  }
  return lines;
}

describe('house rules: shared lists declared once', () => {
  const files = FOLDERS.flatMap((f) => sourceFiles(join(ROOT, f))).map((f) =>
    relative(ROOT, f).split('\\').join('/'),
  );

  for (const list of LISTS) {
    it(`${list.name} is declared in ${list.owner} alone; the others import it`, () => {
      const members = declaredMembers(readFileSync(join(ROOT, list.owner), 'utf8'), list.name);
      assert.ok(members.length > LOST + 2, `${list.name}: only ${members.length} members read`);
      const copies = files
        .filter((f) => f !== list.owner)
        .flatMap((f) => copiesIn(readFileSync(join(ROOT, f), 'utf8'), members).map((line) => `${f}:${line}`));
      assert.deepEqual(copies, [], `${list.name} typed again (import it from its owner instead)`);
    });
  }

  it('would see a copy, one that lost two members, and one in an array of objects; not a subset', () => {
    const members = declaredMembers("export const OPS = ['a', 'b', 'c', 'd', 'e'] as const;", 'OPS');
    assert.deepEqual(members, ['a', 'b', 'c', 'd', 'e']);
    const text = [
      "const whole = ['a', 'b', 'c', 'd', 'e'];",
      "const lost = ['a', 'b', 'c'];",
      "const rows = [{ op: 'a' }, { op: 'b' }, { op: 'c' }, { op: 'd' }];",
      "const subset = ['a', 'b'];",
      "// const commented = ['a', 'b', 'c', 'd', 'e'];",
    ].join('\n');
    assert.deepEqual(copiesIn(text, members), [1, 2, 3]);
  });
});
