/**
 * docs/RULES.md is the map of the chain rules: every rule ends with a line
 * `Code: … · Tests: … · Model: …` naming its source, its tests and the testkit's model. This test
 * keeps that map true as files move: every rule file of chain/execute/ and chain/block/ has an
 * entry, every path the map names exists, and every error code of chain/errors.ts is asserted by
 * at least one test (its quoted name appears in a test file), so a code no test produces shows.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BLOCK_ERROR_CODES, TX_ERROR_CODES } from '../../../src/chain/index.js';
import { sourceFiles } from '../../house/importGraph.js';

/** The repository root: this file runs from node/dist/tests/unit/chain/. */
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const RULES = join(ROOT, 'docs/RULES.md');
const CHAIN = join(ROOT, 'node/src/chain');

/** The files of the rule folders that hold no rule of their own, and why. */
const NOT_RULES: Readonly<Record<string, string>> = {
  'execute/common.ts': 'checks several transaction rules share',
  'execute/context.ts': 'the shape every transaction rule is written against',
};

/** The map lines of a RULES.md text: each rule's `Code: … · Tests: … · Model: …`. */
function mapLines(rulesText: string): string[] {
  return rulesText.split('\n').filter((l) => /^\s*Code: /.test(l));
}

/** The link targets of `text`, resolved from docs/ to paths relative to the repository root. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => relative(ROOT, resolve(ROOT, 'docs', m[1]!)));
}

/** Rule files (relative to chain/) that no map line names as code. */
function unmappedRuleFiles(rulesText: string, ruleFiles: readonly string[]): string[] {
  const named = new Set(
    mapLines(rulesText).flatMap((l) =>
      linkTargets(l.split(' · Tests: ')[0]!).map((p) => relative('node/src/chain', p)),
    ),
  );
  return ruleFiles.filter((f) => !named.has(f));
}

/** Paths the map lines name that do not exist. */
function missingPaths(rulesText: string): string[] {
  return mapLines(rulesText)
    .flatMap(linkTargets)
    .filter((p) => !existsSync(join(ROOT, p)));
}

/** Codes whose quoted name appears in none of the texts. */
function untestedCodes(codes: readonly string[], testTexts: readonly string[]): string[] {
  return codes.filter((c) => !testTexts.some((t) => t.includes(`'${c}'`)));
}

function ruleFiles(): string[] {
  return ['execute', 'block']
    .flatMap((folder) => readdirSync(join(CHAIN, folder)).map((f) => `${folder}/${f}`))
    .filter((f) => f.endsWith('.ts') && !(f in NOT_RULES))
    .sort();
}

/** Every test source of the node package but this one (which names every code). */
function testTexts(): string[] {
  const self = fileURLToPath(import.meta.url)
    .replace(/\.js$/, '.ts')
    .replace('/dist/', '/');
  return sourceFiles(join(ROOT, 'node/tests'))
    .filter((f) => resolve(f) !== self)
    .map((f) => readFileSync(f, 'utf8'));
}

describe('docs/RULES.md, the map of the chain rules', () => {
  const rules = readFileSync(RULES, 'utf8');

  it('names every rule file of chain/execute/ and chain/block/ as the code of a rule', () => {
    assert.ok(ruleFiles().length >= 20, `rule files found: ${ruleFiles().join(', ')}`);
    assert.deepEqual(unmappedRuleFiles(rules, ruleFiles()), []);
  });

  it('names only paths that exist', () => {
    assert.ok(mapLines(rules).length > 0, 'no map line found: has their format changed?');
    assert.deepEqual(missingPaths(rules), []);
  });

  it('names as no rule only files that exist (a moved helper must be listed again)', () => {
    for (const f of Object.keys(NOT_RULES)) assert.ok(existsSync(join(CHAIN, f)), f);
  });

  it('has every error code asserted by at least one test', () => {
    const texts = testTexts();
    assert.deepEqual(untestedCodes(TX_ERROR_CODES, texts), [], 'transaction error codes');
    assert.deepEqual(untestedCodes(BLOCK_ERROR_CODES, texts), [], 'block error codes');
  });

  it('would notice a missing entry, a path that is gone and an untested code', () => {
    const entry = mapLines(rules).find((l) => l.includes('execute/unjail.ts'))!;
    assert.deepEqual(unmappedRuleFiles(rules.replace(entry, ''), ruleFiles()), ['execute/unjail.ts']);
    const moved = rules.replace('chain/execute/unjail.test.ts', 'chain/unjail.test.ts');
    assert.deepEqual(missingPaths(moved), ['node/tests/unit/chain/unjail.test.ts']);
    assert.deepEqual(untestedCodes(['NOT_JAILED', 'NO_SUCH_CODE'], ["assert.equal(code, 'NOT_JAILED')"]), [
      'NO_SUCH_CODE',
    ]);
  });
});
