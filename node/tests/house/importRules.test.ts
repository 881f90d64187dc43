/**
 * The import rules as data (importRules.ts) held against the real import graph of the node's and
 * the kit's sources, and against docs/ARCHITECTURE.md's table ("Import rules"): each layer's row
 * names exactly what the data lets it import, before its " — " and its reason. The check itself is
 * tried on made-up edges first, so it cannot pass by seeing nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { importGraph } from './importGraph.js';
import { brokenRules, KIT_RULES, type LayerRule, NODE_EVERY_LAYER, NODE_RULES } from './importRules.js';
import { ROOT } from './sources.js';

/** Every import between two files under `src` (a package's sources), as paths under it without .ts. */
function edgesOf(src: string): [string, string][] {
  const strip = (f: string) => f.slice(src.length + 1).replace(/\.ts$/, '');
  return [...importGraph(ROOT, src)].flatMap(([from, tos]) =>
    tos.map((to) => [strip(from), strip(to)] as [string, string]),
  );
}

/** The table's rows: a layer (`x/`) and the node paths named before the row's " — ". */
function tableRows(): Map<string, string[]> {
  const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Import rules'), doc.indexOf('No import cycle between files'));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const m = /^\| `([a-z][\w/]*)\/`\s*\|(.*)\|\s*$/.exec(line);
    if (m === null) continue;
    const allowed = m[2]!.split(' — ')[0]!;
    rows.set(
      m[1]!,
      [...allowed.matchAll(/`([a-z][\w/]*?)\/?`/g)].map((t) => t[1]!),
    );
  }
  return rows;
}

describe('house rules: the import rules as data', () => {
  it('the check finds an import a layer may not make, and none it may', () => {
    const rules: LayerRule[] = [
      { layer: 'a', mayImport: ['b/one'], why: 'x' },
      { layer: 'a/inner', mayImport: ['a'], why: 'x' },
      { layer: 'b', mayImport: [], why: 'x' },
    ];
    assert.deepEqual(
      brokenRules(rules, [
        ['a/x', 'b/one'],
        ['a/x', 'b/two'],
        ['a/inner/y', 'a/x'],
        ['a/x', 'a/inner/y'],
        ['b/one', 'b/two'],
        ['c/z', 'b/one'],
      ]),
      [
        'a/x -> b/two (a/ may not import it)',
        'a/x -> a/inner/y (a/ may not import it)',
        'c/z: in no layer of the rules',
      ],
    );
  });

  it('every import of the node keeps its layer rule', () => {
    assert.deepEqual(brokenRules(NODE_RULES, edgesOf('node/src'), NODE_EVERY_LAYER), []);
  });

  it('every import of the kit keeps its layer rule', () => {
    assert.deepEqual(brokenRules(KIT_RULES, edgesOf('kit/src')), []);
  });

  it("docs/ARCHITECTURE.md's table names for each layer exactly what its rule allows", () => {
    const rows = tableRows();
    for (const rule of NODE_RULES)
      assert.deepEqual(
        [...(rows.get(rule.layer) ?? ['(no row)'])].sort(),
        [...rule.mayImport].sort(),
        `the row of ${rule.layer}/`,
      );
    assert.deepEqual(
      [...rows.keys()].filter((l) => !NODE_RULES.some((r) => r.layer === l)),
      [],
      'rows of layers the rules do not have',
    );
  });
});
