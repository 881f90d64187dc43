/**
 * Runs one checked scenario on a testnet of its own: the devnet up from its manifest, its load
 * started, each step after its trigger as one testkit call with the step's plain data, the load
 * stopped and judged, the invariants checked, then the teardown (unless kept). Every step is
 * printed as it runs; the result holds what a report (JUnit) needs: each step's outcome and, for
 * a failure, its step, node and height.
 */
import { dirname, resolve } from 'node:path';
import { parseDuration } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { ALL_NODES, NODE_OPS, type NodeOp } from '../operations/nodeOp.js';
import type { RuntimeChoice } from '../spec/manifest.js';
import { TestkitError } from '../testkit/errors.js';
import type { Expectations } from '../testkit/expect/index.js';
import type { LoadReport } from '../testkit/load/report.js';
import { Testnet } from '../testkit/testnet/testnet.js';
import { expectTask, marketStep, type TaskExpectation } from './marketSteps.js';
import { type Produced, producerOf, resolveReferences } from './refs.js';
import type { Scenario, Step, Trigger } from './scenario.js';
import type { StepKind } from './schema.js';
import { txStep } from './txStep.js';

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

/** Waits for a step's trigger: the highest answering node at a height, or a time since the steps began. */
async function waitTrigger(net: Testnet, at: Trigger, began: number): Promise<void> {
  if ('time' in at) {
    const ms = began + (parseDuration(at.time) ?? 0) - Date.now();
    if (ms > 0) await pause(ms);
    return;
  }
  const first = await highest(net);
  const deadline = Date.now() + net.within(Math.max(0, at.height - first) + 5);
  let top = first;
  while (top < at.height) {
    if (Date.now() > deadline)
      throw await net.net.failureNow(
        net.names()[0]!,
        `a node at height ${at.height} (the step's trigger) within ${at.height - first + 5} blocks`,
        `the highest node at ${top}`,
      );
    await pause(100);
    top = await highest(net);
  }
}

/** The highest height a node answers now (0 when none does). */
async function highest(net: Testnet): Promise<number> {
  const hs = await Promise.all(net.names().map((n) => net.net.heightOf(n)));
  return Math.max(0, ...hs.filter((h): h is number => h !== null));
}

/**
 * Runs one step (its references resolved); what it produced, for the steps after it (refs.ts).
 * `dir`: the scenario file's folder (a `save` path is relative to it).
 */
async function execute(net: Testnet, kind: StepKind, step: Step, dir: string): Promise<Produced> {
  if ((NODE_OPS as readonly string[]).includes(kind)) {
    const op = kind as NodeOp;
    const { node } = step[op]!;
    // `stop: {node: all}`, `start: {node: all}`: the whole devnet (docs/SCENARIOS.md).
    if (node === ALL_NODES && op === 'stop') await net.stopAll();
    else if (node === ALL_NODES && op === 'start') await net.startAll();
    else await net.fault({ op, node });
    return { height: await highest(net) };
  }
  switch (kind) {
    case 'partition':
      await net.partition(step.partition!);
      break;
    case 'heal':
      await net.heal();
      break;
    case 'upgrade': {
      const { node, to } = step.upgrade!;
      for (const name of node === ALL_NODES ? net.names() : [node]) await net.node(name).upgrade(to);
      break;
    }
    case 'add': {
      const r = await net.add(step.add ?? {});
      return { node: r.name, height: r.height };
    }
    case 'tx': {
      const r = await txStep(net, step.tx!);
      return { hash: r.tx_hash, from: r.from, height: r.receipt?.block_height ?? (await highest(net)) };
    }
    case 'upgradePlan': {
      const r = await net.upgradePlan(step.upgradePlan!);
      if (!r.done)
        throw await net.net.failureNow(
          net.names()[0]!,
          `the plan ${r.target_version} at ${r.upgrade_height} ${step.upgradePlan!.cancel ? 'cancelled' : 'scheduled'}`,
          `signed by ${r.signed_by.join(', ') || 'nobody'} and not yet`,
        );
      return { height: r.upgrade_height };
    }
    case 'market':
      return marketStep(net, step.market!);
    case 'save': {
      const r = await net.save(resolve(dir, step.save!));
      return { height: Math.min(...Object.values(r.manifest.heights).map((h) => h ?? 0)) };
    }
    case 'wait': {
      const w = step.wait!;
      if ('seconds' in w) await pause(w.seconds * 1000);
      else await net.waitBlocks(w.blocks, w.nodes);
      break;
    }
    case 'expect': {
      const [assertion, arg] = Object.entries(step.expect!)[0]!;
      // The market's task is not the chain's: asked of the market (marketSteps.ts).
      if (assertion === 'task') return expectTask(net, arg as unknown as TaskExpectation);
      const call = net.expect[assertion as keyof Expectations] as (a: unknown) => Promise<unknown>;
      await call.call(net.expect, arg);
      break;
    }
  }
  return { height: await highest(net) };
}

const failed = (label: string, ms: number, e: unknown): CaseResult => ({
  label,
  outcome: 'failed',
  ms,
  error: (e as Error).message ?? String(e),
  ...(e instanceof TestkitError ? { node: e.node, height: e.height } : {}),
});

export async function runScenario(s: Scenario, o: RunOptions): Promise<ScenarioResult> {
  const t0 = Date.now();
  const cases: CaseResult[] = [];
  const say = o.print;
  say(`scenario ${s.name} (${s.source}): ${s.steps.length} steps`);
  const runtime = o.runtime ?? s.file.runtime;
  let net: Testnet;
  try {
    net = await Testnet.start({
      manifest: s.manifest,
      ...(runtime === undefined ? {} : { runtime }),
      name: s.name,
      log: (line) => say(`  · ${line}`),
      ...(o.keepLogsDir === undefined ? {} : { keepLogsDir: o.keepLogsDir }),
      ...(s.file.invariants?.byzantine === undefined
        ? {}
        : { invariants: { byzantine: s.file.invariants.byzantine } }),
    });
  } catch (e) {
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
  cases.push({ label: 'devnet up', outcome: 'passed', ms: Date.now() - t0 });

  let ok = true;
  let loadReport: LoadReport | null = null;
  try {
    const { minConfirmed, ...loadOptions } = s.file.load ?? {};
    const load = s.file.load === undefined ? null : await net.load(loadOptions);
    const began = Date.now();
    const results = new Map<string, { kind: string; produced: Produced }>();
    for (const { kind, step: asWritten, label } of s.steps) {
      if (!ok) {
        cases.push({ label, outcome: 'skipped', ms: 0, reason: 'an earlier step failed' });
        continue;
      }
      const t = Date.now();
      const at = asWritten.at;
      const when = at === undefined ? '' : 'height' in at ? ` (at height ${at.height})` : ` (at ${at.time})`;
      say(`  ▶ ${label}${when}`);
      try {
        await net.step(label, async () => {
          // The parts the check looked for references in: the kind's data and the trigger (a
          // name is the label, as written).
          const { [kind]: body, at: trigger } = resolveReferences(
            { [kind]: asWritten[kind], at: asWritten.at },
            results,
          );
          const step: Step = {
            ...asWritten,
            [kind]: body,
            ...(trigger === undefined ? {} : { at: trigger }),
          };
          if (step.at !== undefined) await waitTrigger(net, step.at, began);
          const produced = await execute(net, kind, step, dirname(resolve(s.source)));
          if (step.as !== undefined) results.set(step.as, { kind: producerOf(kind, step[kind]), produced });
        });
        cases.push({ label, outcome: 'passed', ms: Date.now() - t });
        say(`  ✔ ${label} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      } catch (e) {
        ok = false;
        const c = failed(label, Date.now() - t, e);
        cases.push(c);
        say(`  ✘ ${c.error}`);
      }
    }
    if (load !== null) {
      const t = Date.now();
      loadReport = await load.stop();
      const r = loadReport;
      say(
        `  load: ${r.submitted} submitted, ${r.confirmed} confirmed, ${r.failed} failed, ${r.rejected} rejected, ` +
          `${r.pending} pending, ${r.resent} resent; latency p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`,
      );
      const need = minConfirmed ?? 1;
      if (r.confirmed >= need) cases.push({ label: 'load', outcome: 'passed', ms: Date.now() - t });
      else {
        ok = false;
        cases.push({
          label: 'load',
          outcome: 'failed',
          ms: Date.now() - t,
          error: `load: expected at least ${need} transactions confirmed; found ${r.confirmed} (${JSON.stringify(r.reasons)})`,
        });
        say(`  ✘ load: ${r.confirmed} confirmed, at least ${need} expected`);
      }
    }
    if (ok) {
      const t = Date.now();
      say('  ▶ invariants');
      try {
        await net.checkInvariants();
        cases.push({ label: 'invariants', outcome: 'passed', ms: Date.now() - t });
        say(`  ✔ invariants (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      } catch (e) {
        ok = false;
        const c = failed('invariants', Date.now() - t, e);
        cases.push(c);
        say(`  ✘ ${c.error}`);
      }
    } else
      cases.push({ label: 'invariants', outcome: 'skipped', ms: 0, reason: 'not checked: the run failed' });
  } catch (e) {
    // Not a step's failure (the load could not start, say): the run failed outside any step.
    ok = false;
    const c = failed('scenario', Date.now() - t0, e);
    cases.push(c);
    say(`  ✘ ${c.error}`);
  } finally {
    await net.stop({ failed: !ok, invariants: false, keep: o.keep ?? false }).catch((e: Error) => {
      ok = false;
      cases.push(failed('teardown', 0, e));
    });
  }
  const ms = Date.now() - t0;
  say(`${ok ? 'PASS' : 'FAIL'} ${s.name} in ${(ms / 1000).toFixed(1)} s`);
  return {
    name: s.name,
    source: s.source,
    runtime: net.runtime,
    ok,
    ms,
    cases,
    load: loadReport,
    keptHome: o.keep ? net.home : null,
  };
}
