/**
 * A whole network of validators in one process, on the simulation's edges: the virtual clock
 * (scheduler.ts), the simulated network (simNetwork.ts), in-memory disks and keys drawn from the
 * seed. Above those edges each node is the node's own code (simNode.ts). A run applies its
 * faults (faults.ts) at their times, undoes them all at the end of their span, and then judges
 * the run: no two nodes ever committed different blocks at a height (safety), and once the
 * network is whole every node goes on to the head plus `liveness.heights` within its bound
 * (liveness). One seed decides every delay and every drawn fault, so the same seed gives the same
 * run, header hash for header hash; `fingerprint` is one hash over every node's headers.
 */
import { loadGenesis } from '../chain/index.js';
import { bytesToHex, sha256 } from '../crypto/index.js';
import { generateNetwork, privateKeyOf } from '../testnet/index.js';
import { applyFault, drawFaults, type FaultDraw, healAll, type SimFault } from './faults.js';
import { seededRandom } from './random.js';
import { SimScheduler } from './scheduler.js';
import { DEFAULT_LINK, type LinkModel, SimNetwork } from './simNetwork.js';
import { SimNode } from './simNode.js';

export interface SimOptions {
  readonly seed: string;
  readonly validators: number;
  /** The run ends once every node has committed this height (and liveness was shown). */
  readonly heights: number;
  readonly blockTimeMs?: number;
  readonly link?: LinkModel;
  /** A bound on the run in virtual milliseconds (default: 20 block times a height, plus the faults' span and the liveness bound). */
  readonly maxVirtualMs?: number;
  /** The faults: a schedule, or how to draw one from the seed; none when absent. */
  readonly faults?: readonly SimFault[] | FaultDraw;
  /** Once every fault is undone, every node reaches the head then plus `heights` within `withinMs`. */
  readonly liveness?: { readonly heights: number; readonly withinMs: number };
  /** The driver's start grace (default 0: the simulation's nodes start together). */
  readonly startGraceMs?: number;
}

export interface SimRun {
  readonly seed: string;
  /** Whether every node reached `heights` (and the liveness target) within the bound. */
  readonly reached: boolean;
  /** Each node's committed height at the end. */
  readonly heights: Readonly<Record<string, number>>;
  /** Each node's header hashes, height 1 first. */
  readonly hashes: Readonly<Record<string, readonly string[]>>;
  /** SHA-256 over every node's name and header hashes, in node order. */
  readonly fingerprint: string;
  /** Heights at which two nodes committed different blocks (a safety failure). */
  readonly forks: readonly number[];
  /** The faults applied, in order. */
  readonly faults: readonly SimFault[];
  /** What the run's checks found wrong (safety, liveness, a node's handler that threw); empty: it passed. */
  readonly failures: readonly string[];
  readonly virtualMs: number;
  readonly events: number;
  readonly messages: number;
  readonly requests: number;
  readonly handlerFailures: SimNetwork['failures'];
}

/** The genesis time of every simulated chain: a run's timestamps depend on its seed alone. */
const SIM_GENESIS_TIME = 1_800_000_000;

/** The default liveness bound: the heights a whole network goes on by, and the time it has. */
export const DEFAULT_LIVENESS = { heights: 3, withinMs: 60_000 } as const;

export async function simulate(o: SimOptions): Promise<SimRun> {
  const blockTimeMs = o.blockTimeMs ?? 1000;
  const random = seededRandom(o.seed);
  const scheduler = new SimScheduler(SIM_GENESIS_TIME * 1000 + 1000);
  const network = new SimNetwork(scheduler, random.fork('network'), o.link ?? DEFAULT_LINK);
  const generated = generateNetwork({
    seed: `sim:${o.seed}`,
    validators: o.validators,
    developerAccounts: 1,
    basePort: 20_000,
    genesisTime: SIM_GENESIS_TIME,
    params: { block_time_ms: blockTimeMs },
  });
  const genesis = loadGenesis(generated.genesis);
  if (!genesis.ok) throw new Error(`the simulated genesis is invalid: ${genesis.problems.join('; ')}`);
  const world = {
    scheduler,
    network,
    genesis: genesis.genesis,
    blockTimeMs,
    startGraceMs: o.startGraceMs ?? 0,
  };
  const nodes = new Map<string, SimNode>();
  for (const n of generated.nodes)
    nodes.set(n.name, new SimNode(n.name, privateKeyOf(n.key), world, random.fork(`node ${n.name}`)));
  const faults = scheduleOf(o.faults, [...nodes.keys()], random);
  try {
    for (const n of nodes.values()) await n.start();
    const start = scheduler.now;
    const judged = await runFaultsThenLiveness(o, scheduler, network, nodes, faults, blockTimeMs);
    const hashes: Record<string, string[]> = {};
    const heights: Record<string, number> = {};
    for (const n of nodes.values()) {
      heights[n.name] = n.height;
      hashes[n.name] = await n.headerHashes();
    }
    const forks = forksOf(Object.values(hashes));
    const failures = [
      ...judged.failures,
      ...(forks.length === 0
        ? []
        : [`safety: nodes committed different blocks at heights ${forks.join(', ')}`]),
      ...network.failures.map((f) => `${f.node}: a ${f.topic} handler threw: ${f.error}`),
      ...[...nodes.values()].flatMap((n) => n.failures),
    ];
    return {
      seed: o.seed,
      reached: judged.reached,
      heights,
      hashes,
      fingerprint: fingerprintOf([...nodes.keys()], hashes),
      forks,
      faults,
      failures,
      virtualMs: scheduler.now - start,
      events: scheduler.events,
      messages: network.delivered,
      requests: network.requests,
      handlerFailures: network.failures,
    };
  } finally {
    for (const n of nodes.values()) await n.close();
  }
}

function scheduleOf(
  faults: SimOptions['faults'],
  names: readonly string[],
  random: ReturnType<typeof seededRandom>,
): SimFault[] {
  if (faults === undefined) return [];
  if (Array.isArray(faults)) return [...faults];
  return drawFaults(random.fork('faults'), names, faults as FaultDraw);
}

/**
 * Each fault at its time, everything undone after the last, then the run until every node has
 * `heights` and the head at the heal plus the liveness heights: reached, or what failed.
 */
async function runFaultsThenLiveness(
  o: SimOptions,
  scheduler: SimScheduler,
  network: SimNetwork,
  nodes: ReadonlyMap<string, SimNode>,
  faults: readonly SimFault[],
  blockTimeMs: number,
): Promise<{ reached: boolean; failures: string[] }> {
  const liveness = o.liveness ?? DEFAULT_LIVENESS;
  const start = scheduler.now;
  const failures: string[] = [];
  const settle = (what: string, p: Promise<void>) =>
    p.catch((e: unknown) => failures.push(`${what} failed: ${(e as Error).message}`));
  for (const f of faults)
    scheduler.after(f.atMs, () => void settle(`fault ${JSON.stringify(f)}`, applyFault(f, nodes, network)));
  const healAt = faults.length === 0 ? 0 : Math.max(...faults.map((f) => f.atMs)) + 1;
  let target: number | null = faults.length === 0 ? o.heights : null;
  let healedAt = start;
  if (faults.length > 0)
    scheduler.after(healAt, () => {
      void settle(
        'healing every fault',
        healAll(nodes, network).then(() => {
          healedAt = scheduler.now;
          target = Math.max(
            o.heights,
            Math.max(...[...nodes.values()].map((n) => n.height)) + liveness.heights,
          );
        }),
      );
    });
  const bound = o.maxVirtualMs ?? healAt + Math.max(o.heights * blockTimeMs * 20, liveness.withinMs);
  const reached = await scheduler.run({
    until: start + bound,
    done: () => target !== null && [...nodes.values()].every((n) => n.up && n.height >= target!),
  });
  const heights = () => [...nodes.values()].map((n) => `${n.name} ${n.height}`).join(', ');
  // Judged by the time the whole network took, whatever the run's own bound let it go on to.
  const late = faults.length > 0 && target !== null && scheduler.now - healedAt > liveness.withinMs;
  if (late)
    failures.push(
      `liveness: ${liveness.withinMs} ms after the network was whole, not every node had height ${target} (${reached ? `reached after ${Math.round(scheduler.now - healedAt)} ms` : heights()})`,
    );
  else if (!reached)
    failures.push(
      `the run ended (bound ${bound} ms) before every node had height ${target ?? o.heights}: ${heights()}`,
    );
  return { reached, failures };
}

function fingerprintOf(
  names: readonly string[],
  hashes: Readonly<Record<string, readonly string[]>>,
): string {
  const text = names.map((name) => `${name}:${(hashes[name] ?? []).join(',')}`).join('\n');
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

function forksOf(chains: readonly (readonly string[])[]): number[] {
  const forks: number[] = [];
  const longest = Math.max(0, ...chains.map((c) => c.length));
  for (let i = 0; i < longest; i++) {
    const seen = new Set(chains.map((c) => c[i]).filter((h) => h !== undefined));
    if (seen.size > 1) forks.push(i + 1);
  }
  return forks;
}
