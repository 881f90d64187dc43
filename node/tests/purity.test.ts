/**
 * Keeps the chain rules pure (docs/ARCHITECTURE.md): node/src/chain and node/src/crypto import
 * only each other (crypto never chain) and four pure libraries, and never reach for a clock,
 * randomness, the process or the network. The lint config forbids the same imports; this test
 * also catches globals, which an import rule cannot see.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PURE_PACKAGES = [/^@noble\/secp256k1$/, /^@noble\/hashes\/[a-z0-9]+\.js$/, /^bech32$/, /^fflate$/];
const FORBIDDEN_GLOBALS: readonly [RegExp, string][] = [
  [/\bDate\b/, 'the clock (Date)'],
  [/\bperformance\b/, 'the clock (performance)'],
  [/\bMath\.random\b/, 'randomness (Math.random)'],
  [/\bgetRandomValues\b|\brandomBytes\b|\brandomSecretKey\b/, 'randomness'],
  [/\bprocess\b/, 'the process'],
  [/\b(?:setTimeout|setInterval|setImmediate|queueMicrotask)\b/, 'timers'],
  [/\bfetch\s*\(/, 'the network (fetch)'],
  [/\brequire\s*\(/, 'require()'],
  [/\bimport\s*\(/, 'dynamic import()'],
  [/\bconsole\./, 'console output'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Source without comments and string contents, so prose cannot trip the checks. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/`(?:\\[\s\S]|[^`\\])*`/g, '``')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map(
    (m) => (m[1] ?? m[2])!,
  );
}

function problemsIn(layer: 'chain' | 'crypto'): string[] {
  const dir = join(ROOT, 'node/src', layer);
  const problems: string[] = [];
  for (const file of sourceFiles(dir)) {
    const rel = relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    for (const spec of importsOf(text)) {
      if (spec.startsWith('.')) {
        const target = relative(join(ROOT, 'node/src'), resolve(dirname(file), spec));
        const allowed = layer === 'chain' ? /^(chain|crypto)\// : /^crypto\//;
        if (!allowed.test(target)) problems.push(`${rel} imports ${spec} (outside the pure layers)`);
      } else if (!PURE_PACKAGES.some((re) => re.test(spec))) {
        problems.push(`${rel} imports ${spec} (not a pure library)`);
      }
    }
    const stripped = code(text);
    for (const [re, what] of FORBIDDEN_GLOBALS) if (re.test(stripped)) problems.push(`${rel} uses ${what}`);
  }
  return problems;
}

describe('purity of the chain rules', () => {
  it('node/src/chain imports only chain, crypto and pure libraries, and no clock, randomness or I/O', () => {
    assert.deepEqual(problemsIn('chain'), []);
  });

  it('node/src/crypto imports only crypto and pure libraries', () => {
    assert.deepEqual(problemsIn('crypto'), []);
  });

  it('the checker itself catches an impure import and a clock read', () => {
    const sample = "import { readFileSync } from 'node:fs';\nconst now = Date.now();\n";
    assert.deepEqual(importsOf(sample), ['node:fs']);
    assert.ok(/\bDate\b/.test(code(sample)));
    assert.ok(!/\bDate\b/.test(code("// Date in a comment\nconst s = 'Date';\n")));
  });
});
