/**
 * The seed search of `devnet test --runtime sim --seeds N`: seeds, each a network of the node's
 * own code with a fault schedule drawn from the seed (crashes, pauses, partitions both ways and
 * one way; with `--faults` clocks skewed, links slowed and lossy, disks full, slow or forgetful
 * too; with `byzantine`, half the seeds a validator that equivocates from the start), run and
 * judged (no fork; liveness once the network is whole, bounded as a scenario's `wait: { blocks:
 * 3 }` is; no honest validator accused). A failing seed's schedule is shrunk: the Byzantine
 * validator left out, faults taken out one at a time, then validators, while the seed still fails;
 * what is left is written as a scenario file (shrunkScenario.ts) that `devnet test FILE --runtime
 * sim --seed S` replays.
 */
import {
  CLASSIC_KINDS,
  drawByzantine,
  type FaultDraw,
  type LinkModel,
  type SimFault,
  type SimOptions,
  type SimRun,
  simulate,
} from '@chain-devnet/node/sim';
import { unscaledBoundMs } from '../testkit/bounds.js';

export interface SearchOptions {
  readonly seeds: readonly string[];
  readonly validators: number;
  readonly blockTimeMs: number;
  /** Every node reaches this height in each run. */
  readonly heights: number;
  readonly draw: FaultDraw;
  /** Every directed link's latency, jitter and loss. */
  readonly link: LinkModel;
  /** A bound on the simulations one shrink may run. */
  readonly shrinkRuns: number;
  /** Whether a seed may draw a Byzantine validator (drawByzantine: half the seeds, one that equivocates). */
  readonly byzantine?: boolean;
}

export const DEFAULT_SEARCH: Omit<SearchOptions, 'seeds'> = {
  validators: 4,
  blockTimeMs: 1000,
  heights: 20,
  // Many short faults on slow, jittery, lossy links: rounds past 0 and votes that arrive late are
  // where locking matters. A lock ignored for a fresh proposal (a bug planted on a branch) forked
  // 1 seed in 300 of these, none of the honest code's 300 (docs/BENCHMARKS.md, "The seed search").
  // Crashes, pauses and partitions: where locks are taken and rounds pass 0. The clocks, links and
  // disks (`--faults all`) dilute them: 600 seeds of every kind found the planted bug in none
  // (docs/BENCHMARKS.md), but found a liveness bug of a full disk that these never draw.
  draw: { spanMs: 20_000, count: 8, maxLengthMs: 3000, kinds: CLASSIC_KINDS },
  link: { latencyMs: 20, jitterMs: 1000, loss: 0.05, retransmitMs: 200 },
  shrinkRuns: 60,
};

/** A seed's run, and for a failure the schedule shrunk and its run. */
export interface SeedOutcome {
  readonly seed: string;
  readonly run: SimRun;
  readonly shrunk: { readonly options: SimOptions; readonly run: SimRun; readonly runs: number } | null;
}

/** The simulation's options for one seed of the search (and its shrinks): liveness bounded as `wait: { blocks: 3 }`. */
export function seedOptions(o: Omit<SearchOptions, 'seeds'>, seed: string): SimOptions {
  const withinMs = unscaledBoundMs({ blocks: 3 }, { blockTimeMs: o.blockTimeMs, nodes: o.validators });
  return {
    seed,
    validators: o.validators,
    blockTimeMs: o.blockTimeMs,
    heights: o.heights,
    faults: o.draw,
    link: o.link,
    liveness: { heights: 3, withinMs },
    ...(o.byzantine === true ? { byzantine: drawByzantine(seed, o.validators) } : {}),
  };
}

export async function searchSeeds(
  o: SearchOptions,
  onSeed: (outcome: SeedOutcome) => void | Promise<void>,
): Promise<SeedOutcome[]> {
  const outcomes: SeedOutcome[] = [];
  for (const seed of o.seeds) {
    const options = seedOptions(o, seed);
    const run = await simulate(options);
    const shrunk = run.failures.length === 0 ? null : await shrink(options, run, o.shrinkRuns);
    const outcome = { seed, run, shrunk };
    outcomes.push(outcome);
    await onSeed(outcome);
  }
  return outcomes;
}

/**
 * A smaller schedule of the same seed that still fails: each fault left out in turn (kept out when
 * the run still fails), then one validator fewer at a time (its faults left out too), within
 * `maxRuns` simulations.
 */
export async function shrink(
  options: SimOptions,
  failed: SimRun,
  maxRuns: number,
  /** What counts as the failure kept (default: one of the gravest kind the seed's run had: a fork before a stall). */
  isFailure: (run: SimRun) => boolean = sameGravestKind(failed),
): Promise<{ options: SimOptions; run: SimRun; runs: number }> {
  let best: { options: SimOptions; run: SimRun } = {
    options: { ...options, faults: failed.faults },
    run: failed,
  };
  let runs = 0;
  const fails = async (candidate: SimOptions) => {
    runs++;
    const run = await simulate(candidate);
    if (!isFailure(run)) return false;
    best = { options: candidate, run };
    return true;
  };
  // A Byzantine validator is a fault too: left out when the failure does without it.
  if (Object.keys(best.options.byzantine ?? {}).length > 0 && runs < maxRuns)
    await fails({ ...best.options, byzantine: {} });
  for (let i = 0; i < (best.options.faults as SimFault[]).length && runs < maxRuns; ) {
    const faults = best.options.faults as SimFault[];
    if (!(await fails({ ...best.options, faults: faults.filter((_, j) => j !== i) }))) i++;
  }
  while (best.options.validators > 1 && runs < maxRuns) {
    const validators = best.options.validators - 1;
    // A liar kept stays below a third of the validators (4 at least), and is never the one left out.
    const liars = Object.keys(best.options.byzantine ?? {});
    if (liars.length > 0 && (validators < 4 || liars.includes(`validator-${validators}`))) break;
    const faults = withoutNode(best.options.faults as SimFault[], `validator-${validators}`);
    if (!(await fails({ ...best.options, validators, faults }))) break;
  }
  return { ...best, runs };
}

/** A failure's kind, gravest first: a fork, a network that did not go on, a node's defect. */
const KINDS = ['safety', 'liveness', 'other'] as const;
const kindOf = (failure: string) => KINDS.find((k) => failure.startsWith(`${k}:`)) ?? 'other';

/**
 * Whether a run fails as gravely as `failed` did: a fork stays a fork while it shrinks (a schedule
 * that only stalls the chain is another finding, and a smaller one, not the same).
 */
function sameGravestKind(failed: SimRun): (run: SimRun) => boolean {
  const gravest = KINDS.find((k) => failed.failures.some((f) => kindOf(f) === k));
  return (run) => run.failures.some((f) => kindOf(f) === gravest);
}

/** The faults that do not name `node`, with `node` taken out of every group. */
function withoutNode(faults: readonly SimFault[], node: string): SimFault[] {
  return faults.flatMap((f): SimFault[] => {
    if ('node' in f) return f.node === node ? [] : [f];
    if (f.kind === 'partition') {
      const group = f.group.filter((n) => n !== node);
      return group.length === 0 ? [] : [{ ...f, group }];
    }
    if (f.kind === 'oneWay') return f.from === node || f.to === node ? [] : [f];
    if (f.kind === 'split') return [{ ...f, groups: f.groups.map((g) => g.filter((n) => n !== node)) }];
    return [f];
  });
}
