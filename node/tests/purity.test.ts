/**
 * Keeps the pure places pure (docs/ARCHITECTURE.md): the chain rules (node/src/chain, with
 * node/src/crypto), the consensus core (node/src/consensus without its driver/), the
 * priv-validator (node/src/privval), the equivocation detector (node/src/evidence) and the
 * rules of sync that need no I/O (when to catch up, whether a snapshot can be trusted) import
 * only pure places and four pure libraries, and never reach for a clock, randomness, the process
 * or the network. The lint config forbids the same imports in chain and crypto; this test also
 * catches globals, which an import rule cannot see.
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

interface Import {
  readonly spec: string;
  /** `import type` / `export type`: erased from the compiled code, so it brings nothing impure in. */
  readonly typeOnly: boolean;
}

function importsOf(text: string): Import[] {
  return [...text.matchAll(/^\s*(?:import|export)\b([^'"]*?)from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map(
    (m) => ({ spec: (m[2] ?? m[3])!, typeOnly: /^\s*type\b/.test(m[1] ?? '') }),
  );
}

/** Paths under node/src, with `/`. */
const srcPath = (file: string) => relative(join(ROOT, 'node/src'), file).split('\\').join('/');
const under = (dir: string) => sourceFiles(join(ROOT, 'node/src', dir)).map(srcPath);

/** The consensus core: consensus/ without the driver, which does the I/O. */
const CORE = /^consensus\/(?!driver\/)/;
const CHAIN = /^(chain|crypto)\//;

interface PurePlace {
  readonly name: string;
  /** Its files, under node/src. */
  readonly files: readonly string[];
  /** The files (under node/src) it may import. */
  readonly may: readonly RegExp[];
  /** Files it may import types from only (an interface of an impure layer it answers in). */
  readonly typesFrom?: readonly RegExp[];
}

/** Pure files in rooms that are not pure as a whole. */
const PURE_FILES: readonly string[] = [
  // The gossip messages' codecs: the consensus core's verdicts decode with them.
  'p2p/messages.ts',
  // When a node catches up by block sync, and whether a snapshot can be trusted: rules over values.
  'sync/block/catchUpPolicy.ts',
  'sync/state/snapshotTrust.ts',
];

const PLACES: readonly PurePlace[] = [
  { name: 'chain', files: under('chain'), may: [CHAIN] },
  { name: 'crypto', files: under('crypto'), may: [/^crypto\//] },
  {
    name: 'consensus core',
    files: under('consensus').filter((f) => CORE.test(f)),
    may: [CHAIN, CORE, /^p2p\/messages\.ts$/],
    // verdicts/verdict.ts: toGossip answers in the p2p layer's Verdict.
    typesFrom: [/^p2p\/network\.ts$/],
  },
  // The priv-validator implements the core's signer (consensus/signer.ts, with its Step).
  { name: 'privval', files: under('privval'), may: [CHAIN, /^privval\//, /^consensus\/(signer|types)\.ts$/] },
  { name: 'evidence', files: under('evidence'), may: [CHAIN] },
  { name: 'pure files of other rooms', files: PURE_FILES, may: [CHAIN] },
];

function problemsIn(place: PurePlace): string[] {
  const problems: string[] = [];
  for (const file of place.files) {
    const path = join(ROOT, 'node/src', file);
    const rel = relative(ROOT, path);
    const text = readFileSync(path, 'utf8');
    for (const { spec, typeOnly } of importsOf(text)) {
      if (spec.startsWith('.')) {
        const target = srcPath(resolve(dirname(path), spec.replace(/\.js$/, '.ts')));
        const allowed = [...place.may, ...(typeOnly ? (place.typesFrom ?? []) : [])];
        if (!allowed.some((re) => re.test(target)))
          problems.push(`${rel} imports ${spec} (outside the pure places)`);
      } else if (!PURE_PACKAGES.some((re) => re.test(spec))) {
        problems.push(`${rel} imports ${spec} (not a pure library)`);
      }
    }
    const stripped = code(text);
    for (const [re, what] of FORBIDDEN_GLOBALS) if (re.test(stripped)) problems.push(`${rel} uses ${what}`);
  }
  return problems;
}

const place = (name: string) => PLACES.find((p) => p.name === name)!;

describe('purity of the chain rules', () => {
  it('node/src/chain imports only chain, crypto and pure libraries, and no clock, randomness or I/O', () => {
    assert.deepEqual(problemsIn(place('chain')), []);
  });

  it('node/src/crypto imports only crypto and pure libraries', () => {
    assert.deepEqual(problemsIn(place('crypto')), []);
  });

  it('the checker itself catches an impure import and a clock read', () => {
    const sample = "import { readFileSync } from 'node:fs';\nconst now = Date.now();\n";
    assert.deepEqual(importsOf(sample), [{ spec: 'node:fs', typeOnly: false }]);
    assert.ok(/\bDate\b/.test(code(sample)));
    assert.ok(!/\bDate\b/.test(code("// Date in a comment\nconst s = 'Date';\n")));
  });
});

describe('purity of consensus and what serves it', () => {
  for (const p of PLACES.slice(2))
    it(`${p.name} imports only pure places, and no clock, randomness or I/O`, () => {
      assert.ok(p.files.length > 0, 'no files: the place moved?');
      assert.deepEqual(problemsIn(p), []);
    });

  it('the consensus core is without its driver, and sees a driver import or a value import of the network', () => {
    const core = place('consensus core');
    assert.ok(core.files.includes('consensus/heightConsensus.ts'));
    assert.ok(core.files.includes('consensus/verdicts/vote.ts'));
    assert.ok(!core.files.some((f) => f.startsWith('consensus/driver/')));
    assert.deepEqual(
      importsOf(
        "import type { Verdict } from '../p2p/network.js';\nimport { x } from './driver/driver.js';\n",
      ),
      [
        { spec: '../p2p/network.js', typeOnly: true },
        { spec: './driver/driver.js', typeOnly: false },
      ],
    );
    assert.ok(!core.may.some((re) => re.test('consensus/driver/driver.ts')));
    assert.ok(!core.may.some((re) => re.test('p2p/network.ts')));
  });
});
