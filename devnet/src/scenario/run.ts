/**
 * Runs one checked scenario on a testnet of its own: the devnet up from its manifest, its load
 * started, each step after its trigger as one testkit call with the step's plain data, the load
 * stopped and judged, the invariants checked, then the teardown (unless kept). Every step is
 * printed as it runs; the result holds what a report (JUnit) needs: each step's outcome and, for
 * a failure, its step, node and height.
 */
import type { RuntimeChoice } from '../spec/manifest.js';
import { TestkitError } from '../testkit/errors.js';
import type { Load } from '../testkit/load/load.js';
import type { LoadReport } from '../testkit/load/report.js';
import { Testnet } from '../testkit/testnet/testnet.js';
import type { Scenario } from './scenario.js';
import { runStep, type StepResults } from './step.js';

export type Outcome = 'passed' | 'failed' | 'skipped';

/** One line of the report: a step, the devnet's start, the load or the invariants. */
export interface CaseResult {
  readonly label: string;
  readonly outcome: Outcome;
  readonly ms: number;
  /** For a failure: the message (it names the step, and for the testkit's, the node and height). */
  readonly error?: string;
  readonly node?: string;
  readonly height?: number | null;
  /** For a skip: why. */
  readonly reason?: string;
  /** When the step began (ISO), its place on the devnet's timeline (`devnet logs --all --since`). */
  readonly at?: string;
}

export interface ScenarioResult {
  readonly name: string;
  readonly source: string;
  readonly runtime: string | null;
  readonly ok: boolean;
  readonly ms: number;
  readonly cases: readonly CaseResult[];
  readonly load: LoadReport | null;
  /** Where the devnet still runs (--keep). */
  readonly keptHome: string | null;
}

export interface RunOptions {
  /** Overrides the scenario's and the manifest's runtime. */
  readonly runtime?: RuntimeChoice;
  /** Leave the devnet running at the end. */
  readonly keep?: boolean;
  /** Where a failed run keeps its nodes' logs (the testkit's default otherwise). */
  readonly keepLogsDir?: string;
  /** Every line of progress. */
  readonly print: (line: string) => void;
}

const failed = (label: string, ms: number, e: unknown): CaseResult => ({
  label,
  outcome: 'failed',
  ms,
  error: (e as Error).message ?? String(e),
  ...(e instanceof TestkitError ? { node: e.node, height: e.height } : {}),
});

/** What a run has decided so far: its cases in order, whether every one passed, the load's report. */
interface RunRecord {
  readonly cases: CaseResult[];
  ok: boolean;
  load: LoadReport | null;
}

/** A failed case: the run fails with it, and it is printed. */
function recordFailure(record: RunRecord, say: (line: string) => void, c: CaseResult): void {
  record.ok = false;
  record.cases.push(c);
  say(`  ✘ ${c.error}`);
}

/** The scenario's testnet, up from its manifest on the runtime asked for. */
function startTestnet(s: Scenario, o: RunOptions, runtime: RuntimeChoice | undefined): Promise<Testnet> {
  return Testnet.start({
    manifest: s.manifest,
    ...(runtime === undefined ? {} : { runtime }),
    name: s.name,
    log: (line) => o.print(`  · ${line}`),
    ...(o.keepLogsDir === undefined ? {} : { keepLogsDir: o.keepLogsDir }),
    ...(s.file.invariants?.byzantine === undefined
      ? {}
      : { invariants: { byzantine: s.file.invariants.byzantine } }),
  });
}

/** The result of a run whose devnet did not come up: that is its one case, and nothing is torn down. */
function upFailed(
  s: Scenario,
  runtime: RuntimeChoice | undefined,
  t0: number,
  e: unknown,
  say: (line: string) => void,
): ScenarioResult {
  const c = failed('devnet up', Date.now() - t0, e);
  say(`  ✘ devnet up: ${c.error}`);
  return {
    name: s.name,
    source: s.source,
    runtime: runtime ?? null,
    ok: false,
    ms: Date.now() - t0,
    cases: [c],
    load: null,
    keptHome: null,
  };
}

/** Each step in order, after its trigger; once one fails, the rest are skipped. */
async function runSteps(
  net: Testnet,
  s: Scenario,
  record: RunRecord,
  say: (line: string) => void,
): Promise<void> {
  const began = Date.now();
  const results: StepResults = new Map();
  for (const entry of s.steps) {
    const { label } = entry;
    if (!record.ok) {
      record.cases.push({ label, outcome: 'skipped', ms: 0, reason: 'an earlier step failed' });
      continue;
    }
    const t = Date.now();
    const trigger = entry.step.at;
    const when =
      trigger === undefined
        ? ''
        : 'height' in trigger
          ? ` (at height ${trigger.height})`
          : ` (at ${trigger.time})`;
    say(`  ▶ ${label}${when}`);
    // On the devnet's timeline too (timeline/events.ts): where each step began, passed or failed.
    const events = net.devnet.events;
    events.note('step', label, { scenario: s.name });
    const at = new Date(t).toISOString();
    try {
      await net.step(label, () => runStep(net, s, entry, results, began));
      record.cases.push({ label, outcome: 'passed', ms: Date.now() - t, at });
      say(`  ✔ ${label} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      events.note('step', `${label} passed`, { scenario: s.name, ms: Date.now() - t });
    } catch (e) {
      const c = { ...failed(label, Date.now() - t, e), at };
      events.note('step', `${label} failed`, { scenario: s.name, error: c.error ?? '' });
      recordFailure(record, say, c);
    }
  }
}

/** The load stopped and judged: at least `need` transactions confirmed. */
async function judgeLoad(
  load: Load,
  need: number,
  record: RunRecord,
  say: (line: string) => void,
): Promise<void> {
  const t = Date.now();
  const r = await load.stop();
  record.load = r;
  say(
    `  load: ${r.submitted} submitted, ${r.confirmed} confirmed, ${r.failed} failed, ${r.rejected} rejected, ` +
      `${r.pending} pending, ${r.resent} resent; latency p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`,
  );
  if (r.confirmed >= need) record.cases.push({ label: 'load', outcome: 'passed', ms: Date.now() - t });
  else {
    record.ok = false;
    record.cases.push({
      label: 'load',
      outcome: 'failed',
      ms: Date.now() - t,
      error: `load: expected at least ${need} transactions confirmed; found ${r.confirmed} (${JSON.stringify(r.reasons)})`,
    });
    say(`  ✘ load: ${r.confirmed} confirmed, at least ${need} expected`);
  }
}

/** The chain's invariants, checked once the rest passed. */
async function checkInvariants(net: Testnet, record: RunRecord, say: (line: string) => void): Promise<void> {
  if (!record.ok) {
    record.cases.push({
      label: 'invariants',
      outcome: 'skipped',
      ms: 0,
      reason: 'not checked: the run failed',
    });
    return;
  }
  const t = Date.now();
  say('  ▶ invariants');
  try {
    await net.checkInvariants();
    record.cases.push({ label: 'invariants', outcome: 'passed', ms: Date.now() - t });
    say(`  ✔ invariants (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  } catch (e) {
    recordFailure(record, say, failed('invariants', Date.now() - t, e));
  }
}

export async function runScenario(s: Scenario, o: RunOptions): Promise<ScenarioResult> {
  const t0 = Date.now();
  const say = o.print;
  say(`scenario ${s.name} (${s.source}): ${s.steps.length} steps`);
  const runtime = o.runtime ?? s.file.runtime;
  let net: Testnet;
  try {
    net = await startTestnet(s, o, runtime);
  } catch (e) {
    return upFailed(s, runtime, t0, e, say);
  }
  const record: RunRecord = {
    cases: [{ label: 'devnet up', outcome: 'passed', ms: Date.now() - t0 }],
    ok: true,
    load: null,
  };
  try {
    const { minConfirmed, ...loadOptions } = s.file.load ?? {};
    const load = s.file.load === undefined ? null : await net.load(loadOptions);
    await runSteps(net, s, record, say);
    if (load !== null) await judgeLoad(load, minConfirmed ?? 1, record, say);
    await checkInvariants(net, record, say);
  } catch (e) {
    // Not a step's failure (the load could not start, say): the run failed outside any step.
    recordFailure(record, say, failed('scenario', Date.now() - t0, e));
  } finally {
    await net.stop({ failed: !record.ok, invariants: false, keep: o.keep ?? false }).catch((e: Error) => {
      record.ok = false;
      record.cases.push(failed('teardown', 0, e));
    });
  }
  const ms = Date.now() - t0;
  say(`${record.ok ? 'PASS' : 'FAIL'} ${s.name} in ${(ms / 1000).toFixed(1)} s`);
  return {
    name: s.name,
    source: s.source,
    runtime: net.runtime,
    ok: record.ok,
    ms,
    cases: record.cases,
    load: record.load,
    keptHome: o.keep ? net.home : null,
  };
}
