/**
 * A scenario file on the simulation (`devnet test FILE --runtime sim --seed S`): its manifest's
 * validators as a SimCluster (the node's own code on a virtual clock, a simulated network and
 * in-memory disks; docs/TESTKIT.md, "Simulation"), each step at its trigger in virtual time
 * (simSteps.ts), then the invariants the simulation checks (no fork, no node's defect). The seed
 * decides every delay, so the same file and seed give the same run: the result's fingerprint,
 * one hash over every node's headers, says so. Times in the result are virtual.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useWaitClock } from '@chain-devnet/kit/wait';
import {
  type ClusterOptions,
  DEFAULT_LINK,
  SimCluster,
  type SimLoad,
  type SimLoadReport,
} from '@chain-devnet/node/sim';
import { DevnetError } from '../base/errors.js';
import { manifestZones } from '../spec/manifest.js';
import { simClusterOptions, simManifestProblems } from '../spec/simManifest.js';
import { DEFAULT_LOAD_ACCOUNTS } from '../testkit/load/options.js';
import { seededTestRandom, useTestRandom } from '../testkit/random.js';
import { SimNet } from '../testkit/testnet/simNet.js';
import { resolveReferences } from './refs.js';
import type { CaseResult, ScenarioResult } from './run.js';
import type { Scenario } from './scenario.js';
import { SimStepFailure, SimSteps, simProblems } from './simSteps.js';
import type { StepResults } from './step.js';

export interface SimScenarioResult extends ScenarioResult {
  readonly seed: string;
  /** What the file's load did on the simulation (an extension; `load` is the other runtimes' report). */
  readonly simLoad: SimLoadReport | null;
  /** SHA-256 over every node's header hashes: equal for two runs of one file and seed. */
  readonly fingerprint: string;
  readonly virtualMs: number;
}

/** Every problem that keeps `s` from the simulation, naming its field; empty: it runs there. */
export function simScenarioProblems(s: Scenario): string[] {
  return [...simManifestProblems(s.manifest), ...simProblems(s)];
}

/** Refuses a scenario the simulation cannot run, naming each field, before anything runs. */
export function checkSimScenario(s: Scenario): void {
  const problems = simScenarioProblems(s);
  if (problems.length > 0)
    throw new DevnetError(
      'BAD_SCENARIO',
      `${s.source} does not run on the simulation:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
}

/** The cluster a scenario runs on: its manifest's, its load's accounts, its file's links. */
function clusterOptionsOf(s: Scenario, seed: string, record: boolean): ClusterOptions {
  const link = s.file.sim?.link;
  const load = s.file.load;
  return {
    ...simClusterOptions(s.manifest, seed),
    ...(record ? { record: true } : {}),
    // A load sends from the network's own accounts: as many as it asks for.
    ...(load === undefined
      ? {}
      : { accounts: typeof load.accounts === 'number' ? load.accounts : DEFAULT_LOAD_ACCOUNTS }),
    ...(link === undefined
      ? {}
      : {
          link: {
            latencyMs: link.latency_ms ?? DEFAULT_LINK.latencyMs,
            jitterMs: link.jitter_ms ?? DEFAULT_LINK.jitterMs,
            loss: link.loss ?? DEFAULT_LINK.loss,
            retransmitMs: link.retransmit_ms ?? DEFAULT_LINK.retransmitMs,
          },
        }),
  };
}

export async function runScenarioOnSim(
  s: Scenario,
  seed: string,
  print: (line: string) => void,
  o: { readonly recordDir?: string } = {},
): Promise<SimScenarioResult> {
  checkSimScenario(s);
  const t0 = Date.now();
  const load = s.file.load;
  const cluster = await SimCluster.open(clusterOptionsOf(s, seed, o.recordDir !== undefined));
  // A tx step's and the chain's expectations' waits on virtual time; the testkit's draws the seed's.
  const restore = [useWaitClock(cluster.waitClock()), useTestRandom(seededTestRandom(`scenario:${seed}`))];
  try {
    print(
      `scenario ${s.name} (${s.source}) on the simulation, seed ${JSON.stringify(seed)}: ${s.steps.length} steps`,
    );
    const running =
      load === undefined
        ? null
        : cluster.load({
            rate: load.rate ?? DEFAULT_SIM_LOAD_RATE,
            ...(load.mix === undefined ? {} : { mix: load.mix }),
            ...(load.window === undefined ? {} : { window: load.window }),
            ...(load.count === undefined ? {} : { count: load.count }),
            ...(load.duration === undefined ? {} : { durationMs: load.duration * 1000 }),
          });
    const cases = await runSimSteps(cluster, s, print);
    running?.stop();
    const simLoad =
      running === null ? null : await loadCase(cluster, running, load?.minConfirmed ?? 1, cases, print);
    const ok = cases.every((c) => c.outcome !== 'failed');
    const chains = await cluster.chains();
    cases.push(
      invariantsCase(
        ok,
        chains.forks,
        [...cluster.nodeFailures(), ...cluster.evidenceProblems({ againstEveryLiar: true })],
        print,
      ),
    );
    print(`  fingerprint ${chains.fingerprint} (${(cluster.elapsedMs / 1000).toFixed(1)} s of virtual time)`);
    if (o.recordDir !== undefined) {
      await writeRecords(cluster, o.recordDir);
      print(`  consensus records in ${o.recordDir} (devnet replay ${o.recordDir} --node NAME)`);
    }
    return {
      name: s.name,
      source: s.source,
      runtime: 'sim',
      ok: cases.every((c) => c.outcome !== 'failed'),
      ms: Date.now() - t0,
      cases,
      load: null,
      keptHome: null,
      seed,
      simLoad,
      fingerprint: chains.fingerprint,
      virtualMs: cluster.elapsedMs,
    };
  } finally {
    for (const put of restore) put();
    await cluster.close();
  }
}

/** Transactions a virtual second when the file names no rate (the other runtimes' load goes as fast as it can). */
const DEFAULT_SIM_LOAD_RATE = 20;

/** The load's case: at least `need` of its transactions confirmed, read on the first node that is up. */
async function loadCase(
  cluster: SimCluster,
  load: SimLoad,
  need: number,
  cases: CaseResult[],
  say: (line: string) => void,
): Promise<SimLoadReport | null> {
  const on = cluster.names.map((n) => cluster.node(n)).find((n) => n.up);
  if (on === undefined) {
    cases.push({
      label: 'load',
      outcome: 'failed',
      ms: 0,
      error: 'load: no node is up to read its receipts on',
    });
    return null;
  }
  const r = await load.report(on);
  say(
    `  load: ${r.sent} sent, ${r.received} received, ${r.confirmed} confirmed, ${r.failed} failed, ${r.rejected} rejected ${JSON.stringify(r.reasons)}`,
  );
  if (r.confirmed >= need) cases.push({ label: 'load', outcome: 'passed', ms: 0 });
  else {
    const error = `load: expected at least ${need} transactions confirmed; found ${r.confirmed}`;
    cases.push({ label: 'load', outcome: 'failed', ms: 0, error });
    say(`  ✘ ${error}`);
  }
  return r;
}

/** Each step after its trigger, in virtual time; once one fails, the rest are skipped. */
async function runSimSteps(
  cluster: SimCluster,
  s: Scenario,
  say: (line: string) => void,
): Promise<CaseResult[]> {
  const steps = new SimSteps(
    cluster,
    await SimNet.open(cluster, manifestZones(s.manifest)),
    cluster.elapsedMs,
  );
  const results: StepResults = new Map();
  const cases: CaseResult[] = [];
  for (const { kind, step: asWritten, label } of s.steps) {
    if (cases.some((c) => c.outcome === 'failed')) {
      cases.push({ label, outcome: 'skipped', ms: 0, reason: 'an earlier step failed' });
      continue;
    }
    const t = cluster.elapsedMs;
    const { [kind]: body, at } = resolveReferences({ [kind]: asWritten[kind], at: asWritten.at }, results);
    const step = { ...asWritten, [kind]: body, ...(at === undefined ? {} : { at }) };
    say(`  ▶ ${label}`);
    try {
      if (step.at !== undefined) await steps.trigger(step.at);
      const produced = await steps.execute(kind, step);
      if (step.as !== undefined) results.set(step.as, { kind, produced });
      cases.push({ label, outcome: 'passed', ms: cluster.elapsedMs - t });
      say(`  ✔ ${label} (${((cluster.elapsedMs - t) / 1000).toFixed(1)} s virtual)`);
    } catch (e) {
      const error =
        e instanceof SimStepFailure ? `${label}: ${e.message}` : `${label}: ${(e as Error).message}`;
      cases.push({ label, outcome: 'failed', ms: cluster.elapsedMs - t, error, height: cluster.head });
      say(`  ✘ ${error}`);
    }
  }
  return cases;
}

function invariantsCase(
  ok: boolean,
  forks: readonly number[],
  defects: readonly string[],
  say: (line: string) => void,
): CaseResult {
  const label = 'invariants';
  // Safety is judged even after a failed step: a fork is the finding, whatever failed before it.
  const problems = [
    ...(forks.length === 0
      ? []
      : [`safety: nodes committed different blocks at heights ${forks.join(', ')}`]),
    ...defects,
  ];
  if (problems.length > 0) {
    say(`  ✘ invariants: ${problems.join('; ')}`);
    return { label, outcome: 'failed', ms: 0, error: `invariants: ${problems.join('; ')}` };
  }
  say(`  ✔ invariants${ok ? '' : ' (no fork, though a step failed)'}`);
  return { label, outcome: 'passed', ms: 0 };
}

/** Each node's consensus record where `devnet replay DIR --node NAME` reads a devnet's: DIR/nodes/NAME/. */
async function writeRecords(cluster: SimCluster, dir: string): Promise<void> {
  for (const name of cluster.names) {
    const home = join(dir, 'nodes', name);
    await mkdir(home, { recursive: true });
    const lines = (cluster.node(name).record ?? []).map((e) => JSON.stringify(e));
    await writeFile(join(home, 'consensus-record.jsonl'), lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  }
}
