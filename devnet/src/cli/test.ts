/**
 * `devnet test`: scenario files run one after the other, each on a devnet of its own (every file
 * checked before the first devnet starts), each step printed as it runs; --junit writes the
 * report; exit 1 when any failed. `--generate N --seed S` writes random scenarios instead, and
 * `--schema` prints the scenario file's JSON Schema.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { choice, defineCommand, flag, integer, text, type Values } from '@chain-devnet/kit/cli';
import { CLASSIC_KINDS, FAULT_KINDS, type FaultKind } from '@chain-devnet/node/sim';
import { stringify as toYaml } from 'yaml';
import { DevnetError } from '../base/errors.js';
import { batchSeeds, generateScenario } from '../scenario/generate.js';
import { junitXml } from '../scenario/junit.js';
import { loadScenarioFile } from '../scenario/parse.js';
import { runScenario, type ScenarioResult } from '../scenario/run.js';
import { SCENARIO_SCHEMA } from '../scenario/schema.js';
import { RUNTIME_CHOICES, type RuntimeChoice } from '../spec/manifest.js';
import { simTest } from './simTest.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** The runtimes of a test: a devnet's, or the simulation (node/src/sim: every node in this process, on virtual time). */
const TEST_RUNTIMES = [...RUNTIME_CHOICES, 'sim'] as const;

const TEST_OPTIONS = {
  runtime: choice(
    `${TEST_RUNTIMES.join(', ')}: overrides the file's and its manifest's; sim: the deterministic simulation (--seed, --seeds)`,
    TEST_RUNTIMES,
    { valueName: 'R' },
  ),
  junit: text('a JUnit report: one testsuite per file, one testcase per step', { valueName: 'OUT.xml' }),
  keep: flag('leave each devnet running (its home is printed; devnet down --home removes it)'),
  'logs-dir': text("where a failed run keeps every node's log (default ./testkit-logs)", {
    valueName: 'DIR',
  }),
  generate: text(
    'write N random scenarios (faults at random heights under load, valid by construction) to --out, named from the seed',
    { valueName: 'N' },
  ),
  seed: text(
    "the generator's seed: the same seed writes the same files; on --runtime sim the run's seed (default seed)",
    { valueName: 'S' },
  ),
  seeds: integer(
    'on --runtime sim: N seeds, S-0 … S-(N-1); with no FILE, the seed search over drawn fault schedules',
    {
      min: 1,
      max: 100_000,
    },
  ),
  validators: integer('on --runtime sim with no FILE: validators of each seed (default 4)', {
    min: 1,
    max: 256,
  }),
  faults: text(
    `on --runtime sim with no FILE: the kinds of fault drawn, a comma list of ${FAULT_KINDS.join(', ')} (a validator that equivocates, in half the seeds), or all (default ${CLASSIC_KINDS.join(',')})`,
    { valueName: 'KINDS' },
  ),
  json: flag(
    'on --runtime sim: one JSON report (each run: seed, fingerprint, failures) instead of the lines',
  ),
  out: text('where --generate writes, and --runtime sim a shrunk failing seed', {
    valueName: 'DIR',
    default: '.',
  }),
  record: text(
    "on --runtime sim with FILE: each node's consensus record into DIR/SEED/nodes/NAME/ (devnet replay DIR/SEED --node NAME)",
    { valueName: 'DIR' },
  ),
  schema: flag("print the scenario file's JSON Schema (devnet/schema/scenario.schema.json)"),
};

export const testCommand = defineCommand({
  name: 'test',
  summary:
    'run scenario files (faults, load, assertions; docs/SCENARIOS.md), each on its own devnet; --generate N --seed S writes random ones',
  options: TEST_OPTIONS,
  positionals: [{ name: 'FILE', description: 'scenario files, YAML or JSON', variadic: true }],
  details: `Also: devnet test --generate N --seed S [--out DIR], and devnet test --schema.

On the simulation: devnet test FILE… --runtime sim [--seed S | --seeds N] [--json] runs each file on every node's own code in this process, on virtual time (docs/TESTKIT.md, "Simulation"), and prints each run's fingerprint; devnet test --runtime sim --seeds N [--seed S] [--validators V] [--out DIR] searches N seeds of drawn fault schedules and writes each failure, shrunk, as a scenario file that replays it.

Runs each scenario file (YAML or JSON: a manifest, a load, a timeline of steps; docs/SCENARIOS.md) on a devnet of its own, printing each step as it runs, then checks the chain's invariants and tears the devnet down. Every file is checked before the first devnet starts.

Exit status: 0 every scenario passed, 1 one failed, 2 a bad file or flag (nothing ran).`,
  run: ({ values, positionals }) => cmdTest(values, positionals),
});

async function cmdTest(v: Values<typeof TEST_OPTIONS>, files: readonly string[]): Promise<number> {
  if (v.schema) {
    out(JSON.stringify(SCENARIO_SCHEMA, null, 2));
    return 0;
  }
  if (v.generate !== undefined) return generate(v.generate, v.seed, v.out);

  if (v.runtime === 'sim') return cmdSimTest(v, files);
  for (const [flagName, value] of [
    ['--seeds', v.seeds],
    ['--validators', v.validators],
    ['--faults', v.faults],
    ['--json', v.json || undefined],
    ['--record', v.record],
  ] as const)
    if (value !== undefined) throw new DevnetError('BAD_FLAG', `${flagName} is for --runtime sim`);
  const runtime = v.runtime as RuntimeChoice | undefined;
  if (files.length === 0)
    throw new DevnetError(
      'BAD_FLAG',
      'devnet test needs scenario files: devnet test FILE… (see devnet test --help)',
    );
  // Every file checked before any devnet starts: a typo in the third file costs no run of the first two.
  const scenarios = [];
  const problems: string[] = [];
  for (const f of files)
    try {
      scenarios.push(await loadScenarioFile(f, runtime === undefined ? {} : { runtime }));
    } catch (e) {
      if (!(e instanceof DevnetError)) throw e;
      problems.push(e.message);
    }
  if (problems.length > 0) throw new DevnetError('BAD_SCENARIO', problems.join('\n'));

  if (v.junit !== undefined) await mkdir(dirname(v.junit), { recursive: true });
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    const r = await runScenario(s, {
      ...(runtime === undefined ? {} : { runtime }),
      keep: v.keep,
      ...(v['logs-dir'] === undefined ? {} : { keepLogsDir: v['logs-dir'] }),
      print: out,
    });
    results.push(r);
    // Written after every file: a run cut short still leaves the report of what finished.
    if (v.junit !== undefined) await writeFile(v.junit, junitXml(results));
  }
  const failedRuns = results.filter((r) => !r.ok);
  out('');
  for (const r of results)
    out(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  ${(r.ms / 1000).toFixed(1)} s  ${r.source}`);
  out(
    `${results.length - failedRuns.length} of ${results.length} scenarios passed${v.junit === undefined ? '' : `; JUnit report ${v.junit}`}`,
  );
  return failedRuns.length === 0 ? 0 : 1;
}

async function cmdSimTest(v: Values<typeof TEST_OPTIONS>, files: readonly string[]): Promise<number> {
  for (const [flagName, value] of [
    ['--junit', v.junit],
    ['--keep', v.keep || undefined],
    ['--logs-dir', v['logs-dir']],
  ] as const)
    if (value !== undefined) throw new DevnetError('BAD_FLAG', `${flagName} is not for --runtime sim`);
  if (files.length === 0 && v.record !== undefined)
    throw new DevnetError(
      'BAD_FLAG',
      '--record is for scenario files on --runtime sim (a seed search writes its failures as files: record those)',
    );
  if (files.length > 0 && v.validators !== undefined)
    throw new DevnetError(
      'BAD_FLAG',
      "--validators is for the seed search (no FILE): a file's manifest says its validators",
    );
  if (files.length > 0 && v.faults !== undefined)
    throw new DevnetError(
      'BAD_FLAG',
      "--faults is for the seed search (no FILE): a file's steps are its faults",
    );
  const problems: string[] = [];
  const scenarios = [];
  for (const f of files)
    try {
      scenarios.push(await loadScenarioFile(f));
    } catch (e) {
      if (!(e instanceof DevnetError)) throw e;
      problems.push(e.message);
    }
  if (problems.length > 0) throw new DevnetError('BAD_SCENARIO', problems.join('\n'));
  return simTest(scenarios, {
    seed: v.seed,
    seeds: v.seeds,
    validators: v.validators,
    kinds: v.faults === undefined ? undefined : faultKindsOf(v.faults),
    out: v.out,
    json: v.json,
    record: v.record ?? null,
    print: out,
  });
}

/** The fault kinds `--faults` names, each one the search draws. */
function faultKindsOf(text: string): FaultKind[] {
  if (text.trim() === 'all') return [...FAULT_KINDS];
  const kinds = text.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0 || kinds.length === 0)
    throw new DevnetError(
      'BAD_FLAG',
      `--faults: ${unknown.map((k) => JSON.stringify(k)).join(', ') || 'nothing'} is not a kind of fault (${FAULT_KINDS.join(', ')}, or all)`,
    );
  return [...new Set(kinds)] as FaultKind[];
}

async function generate(count: string, seed: string | undefined, dir: string): Promise<number> {
  const n = Number(count);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new DevnetError('BAD_FLAG', `--generate must be an integer from 1 to 1000, got ${count}`);
  if (seed === undefined || seed === '')
    throw new DevnetError('BAD_FLAG', '--generate needs --seed S: the same seed makes the same scenarios');
  await mkdir(dir, { recursive: true });
  for (const [i, s] of batchSeeds(seed, n).entries()) {
    const scenario = generateScenario(s);
    const path = join(dir, `${scenario.name}.yaml`);
    const header = `# devnet test --generate ${n} --seed ${seed}: file ${i}, seed ${JSON.stringify(s)}; the same command writes the same files\n`;
    await writeFile(path, header + toYaml(scenario));
    out(path);
  }
  return 0;
}
