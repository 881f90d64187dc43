/**
 * `devnet test … --runtime sim`: scenario files on the simulation, each with one seed (`--seed
 * S`, default "seed") or many (`--seeds N`: S-0 … S-(N-1)), each run's fingerprint printed; with
 * no file, the seed search over fault schedules drawn from each seed, a failing seed shrunk and
 * written as a scenario file (to --out) that replays it, and checked to. `--json` prints one
 * report instead of the lines.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLASSIC_KINDS, type DrawnKind, type FaultKind } from '@chain-devnet/node/sim';
import { stringify as toYaml } from 'yaml';
import { loadScenarioFile } from '../scenario/parse.js';
import type { Scenario } from '../scenario/scenario.js';
import { DEFAULT_SEARCH, type SearchOptions, type SeedOutcome, searchSeeds } from '../scenario/seedSearch.js';
import { shrunkScenario } from '../scenario/shrunkScenario.js';
import { checkSimScenario, runScenarioOnSim, type SimScenarioResult } from '../scenario/simRun.js';

export interface SimTestOptions {
  readonly seed: string | undefined;
  readonly seeds: number | undefined;
  readonly validators: number | undefined;
  /** The seed search's kinds of fault (default: DEFAULT_SEARCH's); `byzantine` draws a liar, the rest faults in time. */
  readonly kinds?: readonly FaultKind[] | undefined;
  readonly out: string;
  readonly json: boolean;
  /** Where each run's consensus records go (DIR/SEED/nodes/NAME/), or null: not recorded. */
  readonly record: string | null;
  readonly print: (line: string) => void;
}

/** The seeds asked for: S-0 … S-(N-1) with --seeds N, else S alone. */
export function seedsOf(o: Pick<SimTestOptions, 'seed' | 'seeds'>): string[] {
  const base = o.seed ?? 'seed';
  return o.seeds === undefined ? [base] : Array.from({ length: o.seeds }, (_, i) => `${base}-${i}`);
}

export async function simTest(files: readonly Scenario[], o: SimTestOptions): Promise<number> {
  return files.length === 0 ? seedSearch(o) : scenariosOnSim(files, o);
}

async function scenariosOnSim(files: readonly Scenario[], o: SimTestOptions): Promise<number> {
  for (const s of files) checkSimScenario(s); // every file before the first run
  const say = o.json ? () => undefined : o.print;
  const results: SimScenarioResult[] = [];
  for (const s of files)
    for (const seed of seedsOf(o))
      results.push(
        await runScenarioOnSim(s, seed, say, o.record === null ? {} : { recordDir: join(o.record, seed) }),
      );
  if (o.json)
    o.print(
      JSON.stringify(
        results.map((r) => ({
          name: r.name,
          source: r.source,
          seed: r.seed,
          ok: r.ok,
          fingerprint: r.fingerprint,
          virtual_ms: r.virtualMs,
          wall_ms: r.ms,
          failures: r.cases.filter((c) => c.outcome === 'failed').map((c) => c.error),
          load: r.simLoad,
        })),
        null,
        2,
      ),
    );
  else {
    say('');
    for (const r of results)
      say(
        `${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  seed ${r.seed}  ${r.fingerprint.slice(0, 16)}  ${(r.ms / 1000).toFixed(1)} s`,
      );
    say(`${results.filter((r) => r.ok).length} of ${results.length} runs passed`);
  }
  return results.every((r) => r.ok) ? 0 : 1;
}

/** The search's draw for `--faults` kinds: the faults in time drawn among those named, a liar when `byzantine` is. */
function drawOf(kinds: readonly FaultKind[]): Pick<SearchOptions, 'draw' | 'byzantine'> {
  const timed = kinds.filter((k): k is DrawnKind => k !== 'byzantine');
  return {
    draw: { ...DEFAULT_SEARCH.draw, kinds: timed, ...(timed.length === 0 ? { count: 0 } : {}) },
    byzantine: kinds.includes('byzantine'),
  };
}

async function seedSearch(o: SimTestOptions): Promise<number> {
  const say = o.json ? () => undefined : o.print;
  const search = {
    ...DEFAULT_SEARCH,
    seeds: seedsOf(o),
    ...(o.validators === undefined ? {} : { validators: o.validators }),
    ...(o.kinds === undefined ? {} : drawOf(o.kinds)),
  };
  say(
    `seed search: ${search.seeds.length} seeds, ${search.validators} validators, ${search.draw.count} faults each (${(search.draw.kinds ?? CLASSIC_KINDS).join(', ') || 'none'})${search.byzantine === true ? ', half the seeds a validator that equivocates,' : ''} drawn in the first ${search.draw.spanMs / 1000} s, links of ${search.link.latencyMs} ms + up to ${search.link.jitterMs} ms with ${search.link.loss * 100} % loss, to height ${search.heights}`,
  );
  const report: Record<string, unknown>[] = [];
  await searchSeeds(search, async (outcome) => {
    const r = outcome.run;
    const liars = Object.keys(r.byzantine);
    const lying = liars.length === 0 ? '' : `, ${liars.join(', ')} equivocating`;
    if (outcome.shrunk === null) {
      say(
        `PASS  ${outcome.seed}  ${r.fingerprint.slice(0, 16)}  ${(r.virtualMs / 1000).toFixed(1)} s virtual, ${r.faults.length} faults${lying}`,
      );
      report.push({
        seed: outcome.seed,
        ok: true,
        fingerprint: r.fingerprint,
        virtual_ms: r.virtualMs,
        faults: r.faults,
        byzantine: r.byzantine,
      });
      return;
    }
    say(`FAIL  ${outcome.seed}  ${r.failures.join('; ')}${lying}`);
    const kept = await keepShrunk(outcome, o.out);
    say(
      `      shrunk in ${outcome.shrunk.runs} runs to ${kept.faults} faults on ${kept.validators} validators: ${kept.file} (replays: ${kept.replays ? 'yes' : 'NO'})`,
    );
    report.push({
      seed: outcome.seed,
      ok: false,
      fingerprint: r.fingerprint,
      failures: r.failures,
      faults: r.faults,
      byzantine: r.byzantine,
      shrunk: kept,
    });
  });
  const failed = report.filter((x) => !x.ok).length;
  if (o.json) o.print(JSON.stringify(report, null, 2));
  else say(`${report.length - failed} of ${report.length} seeds passed`);
  return failed === 0 ? 0 : 1;
}

/** The shrunk schedule written as a scenario file, and whether that file fails again on the simulation. */
async function keepShrunk(outcome: SeedOutcome, dir: string) {
  const shrunk = outcome.shrunk!;
  const why = shrunk.run.failures.join('; ') || 'failed';
  const file = shrunkScenario(
    shrunk.options,
    why,
    `Shrunk by devnet test --runtime sim from seed ${outcome.seed} (${outcome.run.faults.length} faults)`,
  );
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${file.name}.yaml`);
  await writeFile(path, toYaml(file));
  const replay = await runScenarioOnSim(await loadScenarioFile(path), outcome.seed, () => undefined);
  return {
    file: path,
    faults: (shrunk.options.faults as readonly unknown[]).length,
    validators: shrunk.options.validators,
    failures: shrunk.run.failures,
    replays: !replay.ok,
  };
}
