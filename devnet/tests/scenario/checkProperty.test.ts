/**
 * No shape of input makes the file check throw: the valid example files (devnet/scenarios,
 * e2e/scenarios), mutated at random (wrong types, fields removed and added, nulls, huge values,
 * deep nesting), always get a verdict, and every problem names a field. Seeded (SCENARIO_FUZZ_SEED
 * replays a run); no devnet.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { repoPath } from '../../src/base/repo.js';
import { checkScenario, parseScenarioText } from '../../src/scenario/parse.js';
import { SCENARIO_SCHEMA } from '../../src/scenario/schema.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every example scenario (a file with steps), parsed, with the folder its manifest paths start from. */
async function examples(): Promise<{ name: string; dir: string; value: Json }[]> {
  const out: { name: string; dir: string; value: Json }[] = [];
  for (const dir of [repoPath('devnet', 'scenarios'), repoPath('e2e', 'scenarios')])
    for (const f of (await readdir(dir)).sort()) {
      if (!f.endsWith('.yaml')) continue;
      const text = await readFile(join(dir, f), 'utf8');
      if (text.includes('\nsteps:')) out.push({ name: f, dir, value: parseYaml(text) as Json });
    }
  return out;
}

/** The paths to every value in a tree (the root is []). */
function paths(
  v: Json,
  at: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(at);
  if (at.length >= 30) return out; // deep nesting made by a mutation: its top is enough to mutate
  if (Array.isArray(v)) for (const [i, x] of v.entries()) paths(x, [...at, i], out);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function deep(depth: number, leaf: Json): Json {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { steps: v };
  return v;
}

const STRANGE: Json[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -1e308,
  2 ** 53 + 1,
  0.5,
  '',
  'x'.repeat(100_000),
  '${nothing}',
  [],
  {},
  [null],
  { __proto__: 'x', constructor: 1 },
  'validator-99',
  '1.5coin',
  '10s',
];

/** A mutation: at one of the value's paths, replace, delete, add a field, wrap or nest deeply. */
const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'extra', 'wrap', 'deep', 'anything'),
  strange: fc.nat({ max: STRANGE.length - 1 }),
  key: fc.constantFrom('name', 'node', 'nodes', 'steps', 'x', 'within', 'as', 'at', 'status', '__proto__'),
  depth: fc.integer({ min: 1, max: 1000 }),
  anything: fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>,
});

interface Mutation {
  readonly path: number;
  readonly op: string;
  readonly strange: number;
  readonly key: string;
  readonly depth: number;
  readonly anything: Json;
}

function mutate(root: Json, m: Mutation): Json {
  const copy = structuredClone(root);
  const all = paths(copy);
  const path = all[m.path % all.length]!;
  const value: Json =
    m.op === 'deep'
      ? deep(m.depth, STRANGE[m.strange]!)
      : m.op === 'anything'
        ? m.anything
        : STRANGE[m.strange]!;
  if (path.length === 0) return m.op === 'wrap' ? [copy] : value;
  const parent = path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string, Json>)[k as string]!, copy) as
    | Json[]
    | Record<string, Json>;
  const key = path.at(-1)!;
  const set = (v: Json | undefined) => {
    if (Array.isArray(parent)) {
      if (v === undefined) parent.splice(key as number, 1);
      else parent[key as number] = v;
    } else if (v === undefined) delete parent[key as string];
    else
      Object.defineProperty(parent, key, { value: v, enumerable: true, writable: true, configurable: true });
  };
  const here = (parent as Record<string, Json>)[key as string]!;
  if (m.op === 'delete') set(undefined);
  else if (m.op === 'wrap') set([here]);
  else if (m.op === 'extra' && here !== null && typeof here === 'object' && !Array.isArray(here))
    Object.defineProperty(here, m.key, { value, enumerable: true, writable: true, configurable: true });
  else set(value);
  return copy;
}

const TOP_LEVEL = ['the file', ...Object.keys(SCENARIO_SCHEMA.properties)];
/** A problem starts with its field path (a top-level field, maybe deeper), or names an unknown top-level field. */
const namesAField = (p: string) =>
  TOP_LEVEL.some(
    (f) =>
      p === f ||
      p.startsWith(`${f} `) ||
      p.startsWith(`${f}.`) ||
      p.startsWith(`${f}[`) ||
      p.startsWith(`${f}:`),
  ) || / is not a field here \(fields: /.test(p);

describe('the file check never throws, whatever the shape', () => {
  test('random mutations of the example files: a verdict, problems by field path, no internal error', async () => {
    const files = await examples();
    assert.ok(files.length >= 3);
    const seed = process.env.SCENARIO_FUZZ_SEED === undefined ? 2025 : Number(process.env.SCENARIO_FUZZ_SEED);
    const t0 = Date.now();
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (pick, ms) => {
        const file = files[pick % files.length]!;
        const value = ms.reduce((v, m) => mutate(v, m), file.value);
        const r = await checkScenario(value, file.name, file.dir);
        if (r.ok) return;
        refused++;
        assert.ok(r.problems.length > 0);
        for (const p of r.problems) {
          assert.equal(typeof p, 'string');
          assert.doesNotMatch(p, /internal error|is not a function|Cannot read|undefined \(reading/, p);
          assert.ok(namesAField(p), `a problem that names no field: ${p}`);
        }
      }),
      { seed, numRuns: 3000 },
    );
    console.log(`3000 mutated files checked in ${Date.now() - t0} ms, ${refused} refused (seed ${seed})`);
  });

  test('as text too: any JSON or YAML of a mutated file is a verdict or BAD_SCENARIO, never another error', async () => {
    const files = await examples();
    await fc.assert(
      fc.asyncProperty(fc.nat(), mutation, fc.boolean(), async (pick, m, asJson) => {
        const file = files[pick % files.length]!;
        const value = mutate(file.value, m);
        const text = asJson ? (JSON.stringify(value) ?? 'null') : `${JSON.stringify(value)}\n`;
        try {
          await parseScenarioText(text, asJson ? 'm.json' : 'm.yaml', file.dir);
        } catch (e) {
          assert.equal((e as { code?: string }).code, 'BAD_SCENARIO', String(e));
        }
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  test('the first-day file: invariants.byzantine as a string is one problem among all the others', async () => {
    const r = await checkScenario(
      parseYaml(
        'manifest: { validators: 4 }\ninvariants: { byzantine: validator-3 }\nsteps:\n  - kill: { node: validator-9 }\n',
      ),
      'first-day.yaml',
      '.',
    );
    assert.deepEqual(r.ok ? [] : r.problems, [
      'invariants.byzantine must be a list, got "validator-3"',
      'steps[0].kill.node: unknown node "validator-9" (nodes: validator-0, validator-1, validator-2, validator-3)',
    ]);
  });
});
