/**
 * One seed's run: a SimCluster, its faults applied at their times (a schedule given, or drawn
 * from the seed), every fault undone after the last, and the run judged: no two nodes ever
 * committed different blocks at a height (safety); once the network is whole, every node reaches
 * the head plus `liveness.heights` within `liveness.withinMs` (liveness); then every node goes on to
 * `heights`. One seed decides every delay and every drawn fault: the same seed, the same run.
 */
import type { ByzantineMode } from '../faults/equivocator.js';
import { drawFaults, type FaultDraw, type SimFault } from './faults.js';
import { type ClusterChains, type ClusterOptions, SimCluster } from './simCluster.js';

export interface SimOptions extends ClusterOptions {
  /** The run ends once every node has committed this height (and liveness was shown). */
  readonly heights: number;
  /** The bound on reaching `heights` in virtual milliseconds (default: 20 block times a height). */
  readonly maxVirtualMs?: number;
  /** The faults: a schedule, or how to draw one from the seed; none when absent. */
  readonly faults?: readonly SimFault[] | FaultDraw;
  /** Once every fault is undone, every node reaches the head then plus `heights` within `withinMs`. */
  readonly liveness?: { readonly heights: number; readonly withinMs: number };
}

export interface SimRun extends ClusterChains {
  readonly seed: string;
  /** Whether every node reached `heights` (and the liveness target) within the bounds. */
  readonly reached: boolean;
  /** The faults applied, in order. */
  readonly faults: readonly SimFault[];
  /** The validators that equivocated (ClusterOptions.byzantine), by name. */
  readonly byzantine: Readonly<Record<string, ByzantineMode>>;
  /** What the run's checks found wrong (safety, liveness, a node's defect); empty: it passed. */
  readonly failures: readonly string[];
  readonly virtualMs: number;
  readonly events: number;
  readonly messages: number;
  readonly requests: number;
}

/** The default liveness bound: the heights a whole network goes on by, and the time it has. */
export const DEFAULT_LIVENESS = { heights: 3, withinMs: 60_000 } as const;

export async function simulate(o: SimOptions): Promise<SimRun> {
  const cluster = await SimCluster.open(o);
  try {
    const faults = scheduleOf(o.faults, cluster);
    const failures: string[] = [];
    for (const f of faults) {
      await cluster.runTo(f.atMs);
      await cluster
        .apply(f)
        .catch((e: unknown) => failures.push(`${JSON.stringify(f)} failed: ${(e as Error).message}`));
    }
    let reached = true;
    if (faults.length > 0) {
      await cluster.runTo(Math.max(...faults.map((f) => f.atMs)) + 1);
      await cluster.healAll();
      reached = await livenessHolds(cluster, o.liveness ?? DEFAULT_LIVENESS, failures);
    }
    const bound = o.maxVirtualMs ?? o.heights * cluster.blockTimeMs * 20;
    if (reached) {
      reached = await cluster.runUntil(() => cluster.allAt(o.heights), bound);
      if (!reached)
        failures.push(`not every node had height ${o.heights} within ${bound} ms: ${heightsText(cluster)}`);
    }
    const chains = await cluster.chains();
    if (chains.forks.length > 0)
      failures.push(`safety: nodes committed different blocks at heights ${chains.forks.join(', ')}`);
    failures.push(...cluster.nodeFailures());
    // No honest validator accused, whatever the faults (every one proven against a liar only).
    failures.push(...cluster.evidenceProblems({ againstEveryLiar: false }));
    return {
      seed: o.seed,
      reached,
      ...chains,
      faults,
      byzantine: o.byzantine ?? {},
      failures,
      virtualMs: cluster.elapsedMs,
      events: cluster.scheduler.events,
      messages: cluster.network.delivered,
      requests: cluster.network.requests,
    };
  } finally {
    await cluster.close();
  }
}

/** Every node reaches the head at the heal plus `heights` within `withinMs`; else a failure says where each was. */
async function livenessHolds(
  cluster: SimCluster,
  liveness: NonNullable<SimOptions['liveness']>,
  failures: string[],
): Promise<boolean> {
  const target = cluster.head + liveness.heights;
  const held = await cluster.runUntil(() => cluster.allAt(target), liveness.withinMs);
  if (!held)
    failures.push(
      `liveness: ${liveness.withinMs} ms after the network was whole, not every node had height ${target}: ${heightsText(cluster)}`,
    );
  return held;
}

const heightsText = (cluster: SimCluster) =>
  Object.entries(cluster.heights())
    .map(([name, h]) => `${name} ${h}`)
    .join(', ');

function scheduleOf(faults: SimOptions['faults'], cluster: SimCluster): SimFault[] {
  if (faults === undefined) return [];
  if (Array.isArray(faults)) return [...faults];
  return drawFaults(cluster.random.fork('faults'), cluster.names, faults as FaultDraw);
}
