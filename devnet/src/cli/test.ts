/**
 * `devnet test`: scenario files run one after the other, each on a devnet of its own (every file
 * checked before the first devnet starts), each step printed as it runs; --junit writes the
 * report; exit 1 when any failed. `--generate N --seed S` writes random scenarios instead, and
 * `--schema` prints the scenario file's JSON Schema.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify as toYaml } from 'yaml';
import { DevnetError } from '../errors.js';
import { batchSeeds, generateScenario } from '../scenario/generate.js';
import { junitXml } from '../scenario/junit.js';
import { loadScenarioFile } from '../scenario/parse.js';
import { runScenario, type ScenarioResult } from '../scenario/run.js';
import { SCENARIO_SCHEMA } from '../scenario/schema.js';
import { RUNTIME_CHOICES, type RuntimeChoice } from '../spec/manifest.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

export async function cmdTest(args: string[], help: () => number): Promise<number> {
  const { values: v, positionals: files } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      runtime: { type: 'string' },
      junit: { type: 'string' },
      keep: { type: 'boolean' },
      'logs-dir': { type: 'string' },
      generate: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      schema: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) return help();
  if (v.schema) {
    out(JSON.stringify(SCENARIO_SCHEMA, null, 2));
    return 0;
  }
  if (v.generate !== undefined) return generate(v.generate, v.seed, v.out ?? '.');

  const runtime = v.runtime;
  if (runtime !== undefined && !(RUNTIME_CHOICES as readonly string[]).includes(runtime))
    throw new DevnetError(
      'BAD_FLAG',
      `--runtime must be one of ${RUNTIME_CHOICES.join(', ')}, got ${runtime}`,
    );
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
      scenarios.push(
        await loadScenarioFile(f, runtime === undefined ? {} : { runtime: runtime as RuntimeChoice }),
      );
    } catch (e) {
      if (!(e instanceof DevnetError)) throw e;
      problems.push(e.message);
    }
  if (problems.length > 0) throw new DevnetError('BAD_SCENARIO', problems.join('\n'));

  if (v.junit !== undefined) await mkdir(dirname(v.junit), { recursive: true });
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    const r = await runScenario(s, {
      ...(runtime === undefined ? {} : { runtime: runtime as RuntimeChoice }),
      keep: v.keep ?? false,
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
