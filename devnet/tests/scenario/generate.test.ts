/**
 * The generator: reproducible from its seed, and valid by construction: every scenario passes the
 * checker, at most f = 1 validator is faulted at any moment (down, paused, cut off or in a
 * partition's minority), validator-0 is never touched, every fault is undone, triggers go up, and
 * the timeline ends with every node synced.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { devnetCli } from '../../src/harness/cli.js';
import { batchSeeds, generateScenario, prng } from '../../src/scenario/generate.js';
import { checkScenario, loadScenarioFile } from '../../src/scenario/parse.js';
import type { ScenarioFile } from '../../src/scenario/scenario.js';

const UNDOES: Record<string, string> = {
  start: 'down',
  resume: 'paused',
  connect: 'disconnected',
  heal: 'partitioned',
};
const BREAKS: Record<string, string> = {
  kill: 'down',
  stop: 'down',
  pause: 'paused',
  disconnect: 'disconnected',
};

/** Replays the timeline: the faulted validators at every step; throws on a rule broken. */
function checkTimeline(s: ScenarioFile): void {
  const validators =
    s.manifest !== undefined && typeof s.manifest === 'object' ? (s.manifest.validators as number) : 0;
  const f = Math.floor((validators - 1) / 3);
  const faulted = new Map<string, string>(); // node -> how
  let lastHeight = 0;
  // After a fault is undone, every node synced before anything else (a syncing node does not vote).
  let mustSync = false;
  for (const [i, step] of s.steps.entries()) {
    if (mustSync)
      assert.ok(
        step.expect?.synced !== undefined,
        `steps[${i}]: every node synced after the fault was undone`,
      );
    mustSync = false;
    if (step.at !== undefined && 'height' in step.at) {
      assert.ok(step.at.height > lastHeight, `steps[${i}]: trigger ${step.at.height} after ${lastHeight}`);
      lastHeight = step.at.height;
    }
    const [kind, body] = Object.entries(step).find(([k]) => k !== 'at' && k !== 'name')!;
    const node = (body as { node?: string }).node;
    assert.notEqual(node, 'validator-0', `steps[${i}] touches validator-0`);
    if (kind in BREAKS) faulted.set(node!, BREAKS[kind]!);
    else if (kind === 'partition') {
      const groups = body as string[][];
      const minority = groups.reduce((a, b) => (a.length <= b.length ? a : b));
      assert.ok(minority.length <= f, `steps[${i}]: a minority of ${minority.length} > f = ${f}`);
      assert.ok(!minority.includes('validator-0'));
      for (const n of minority) faulted.set(n, 'partitioned');
    } else if (kind in UNDOES) {
      if (kind === 'heal') for (const [n, how] of faulted) how === 'partitioned' && faulted.delete(n);
      else {
        assert.equal(faulted.get(node!), UNDOES[kind], `steps[${i}] ${kind} ${node} undoes what was done`);
        faulted.delete(node!);
      }
    }
    if (kind in UNDOES || kind === 'restart') mustSync = true;
    assert.ok(faulted.size <= f, `steps[${i}]: ${faulted.size} validators faulted at once (f = ${f})`);
  }
  assert.equal(faulted.size, 0, `left faulted at the end: ${[...faulted.keys()].join(', ')}`);
  const tail = s.steps.slice(-2).map((x) => Object.keys(x).find((k) => k !== 'name' && k !== 'at'));
  assert.deepEqual(tail, ['expect', 'wait'], 'ends with every node synced, then a few blocks');
  assert.ok(s.steps.at(-2)!.expect?.synced !== undefined);
}

test('the same seed gives the same scenario; other seeds give others', () => {
  assert.deepEqual(generateScenario('nightly-7'), generateScenario('nightly-7'));
  const distinct = new Set(batchSeeds('x', 20).map((s) => JSON.stringify(generateScenario(s).steps)));
  assert.ok(distinct.size >= 15, `${distinct.size} distinct timelines of 20`);
  // The PRNG: same seed, same sequence; in [0, 1).
  const a = prng('s');
  const b = prng('s');
  for (let i = 0; i < 100; i++) {
    const x = a();
    assert.equal(x, b());
    assert.ok(x >= 0 && x < 1);
  }
});

test('every generated scenario is valid and keeps to the fault rules', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 20 }), async (seed) => {
      const s = generateScenario(seed);
      const checked = await checkScenario(JSON.parse(JSON.stringify(s)), `generated ${seed}`, '.');
      assert.ok(checked.ok, `seed ${JSON.stringify(seed)}: ${JSON.stringify(checked)}`);
      checkTimeline(s);
    }),
    { numRuns: 300 },
  );
});

test('devnet test --generate writes N files, the same for the same seed, each valid', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'scenario-gen-'));
  try {
    const a = await devnetCli(['test', '--generate', '4', '--seed', '42', '--out', join(dir, 'a')]);
    const b = await devnetCli(['test', '--generate', '4', '--seed', '42', '--out', join(dir, 'b')]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const files = (await readdir(join(dir, 'a'))).sort();
    assert.deepEqual(files, [
      'generated-42-0.yaml',
      'generated-42-1.yaml',
      'generated-42-2.yaml',
      'generated-42-3.yaml',
    ]);
    for (const f of files) {
      assert.equal(await readFile(join(dir, 'a', f), 'utf8'), await readFile(join(dir, 'b', f), 'utf8'), f);
      const s = await loadScenarioFile(join(dir, 'a', f));
      checkTimeline(s.file);
    }
    const bad = await devnetCli(['test', '--generate', '4']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--generate needs --seed S/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
