/**
 * A simulated run's faults as data: each at a virtual time after the network's start, on a node
 * or a group of nodes. A schedule is drawn from the seed (`drawFaults`) or written by hand (a
 * test, a shrunk failure); `applyFault` is the one place a fault meets the simulated network.
 * A seed run undoes every fault after the last (SimCluster.healAll), so its liveness is judged on
 * a whole network.
 */
import { type DiskFaults, NO_DISK_FAULTS } from '../disk/faults.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import type { LinkRule } from '../p2p/shaping/conditions.js';
import { type SimRandom, seededRandom } from './random.js';
import type { SimNetwork } from './simNetwork.js';
import type { SimNode } from './simNode.js';

/** What a fault does, on a node or a group; `SimFault` is one at its time. */
export type SimAction =
  /** Killed: its store keeps what it committed; `restart` starts it again from there. */
  | { readonly kind: 'crash'; readonly node: string }
  | { readonly kind: 'restart'; readonly node: string }
  /** Frozen (SIGSTOP): its timers and messages wait; `unpause` lets them run. */
  | { readonly kind: 'pause'; readonly node: string }
  | { readonly kind: 'unpause'; readonly node: string }
  /** `group` cut off from the others: both ways, or only what the group sends (`oneWay`). */
  | { readonly kind: 'partition'; readonly group: readonly string[]; readonly oneWay: boolean }
  /** Each node talks only to its group's; the nodes no group names form one more group (`devnet partition`). */
  | { readonly kind: 'split'; readonly groups: readonly (readonly string[])[] }
  /** What `from` sends no longer reaches `to` (what `to` sends still reaches `from`). */
  | { readonly kind: 'oneWay'; readonly from: string; readonly to: string }
  /** Every cut ended (a disconnected node stays so). */
  | { readonly kind: 'heal' }
  /** Cut off from every peer, both ways, until `connect`. */
  | { readonly kind: 'disconnect'; readonly node: string }
  | { readonly kind: 'connect'; readonly node: string }
  /** Its own clock `ms` ahead of the network's (behind when negative); 0 again with 0. */
  | { readonly kind: 'skew'; readonly node: string; readonly ms: number }
  /**
   * Its links shaped by these rules from now on (`devnet net`, zones: the rules of its
   * net_conditions.json, p2p/shaping/conditions.ts, peers by name); none: clear.
   */
  | { readonly kind: 'links'; readonly node: string; readonly links: readonly LinkRule[] }
  /** Its disk's faults from now on (`devnet disk`: full, slow writes and fsyncs, unsynced writes lost to a crash). */
  | { readonly kind: 'disk'; readonly node: string; readonly faults: DiskFaults };

/** An action `atMs` virtual milliseconds after the network's start. */
export type SimFault = SimAction & { readonly atMs: number };

/** What a drawn fault may be: the classic three, and a node's clock, links and disk. */
export const DRAWN_KINDS = ['crash', 'pause', 'partition', 'skew', 'links', 'disk'] as const;
export type DrawnKind = (typeof DRAWN_KINDS)[number];
/** The kinds a draw had before the others existed: a seed drawn with them is the same run as then. */
export const CLASSIC_KINDS: readonly DrawnKind[] = ['crash', 'pause', 'partition'];

/**
 * Every kind the seed search may draw: the faults in time above, and a Byzantine validator (one
 * that equivocates from the start: chain-node's --byzantine, drawn with the network, not in time).
 */
export const FAULT_KINDS = [...DRAWN_KINDS, 'byzantine'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * The Byzantine validators a seed draws: on a network of 4 or more (where one of them is below a
 * third of the power, as the chain's safety needs), half the seeds draw one, which equivocates;
 * from the seed's own stream, so the other draws of the seed are the same with or without it.
 */
export function drawByzantine(seed: string, validators: number): Record<string, ByzantineMode> {
  const random = seededRandom(seed, 'byzantine');
  if (validators < 4 || !random.chance(0.5)) return {};
  return { [`validator-${random.int(validators)}`]: 'equivocate' };
}

export interface FaultDraw {
  /** Faults are drawn within the first `spanMs` of the run. */
  readonly spanMs: number;
  /** How many faults (each with its end: a restart, an unpause, a heal, the clock, links or disk as before). */
  readonly count: number;
  /** How long a fault lasts, at most (at least a tenth of it). */
  readonly maxLengthMs: number;
  /** What each may be, one drawn evenly for each fault (default CLASSIC_KINDS). */
  readonly kinds?: readonly DrawnKind[];
}

/**
 * A schedule drawn from the seed, each fault undone within its length: a crash (then a restart),
 * a pause, a partition (both ways or one way), a clock skewed up to 20 s either way, a node's
 * links made slow, jittery, lossy or narrow in one direction, its disk full or slow or losing
 * what it did not fsync.
 */
export function drawFaults(random: SimRandom, names: readonly string[], draw: FaultDraw): SimFault[] {
  const kinds = draw.kinds ?? CLASSIC_KINDS;
  const faults: SimFault[] = [];
  for (let i = 0; i < draw.count; i++) {
    const atMs = Math.floor(random.next() * draw.spanMs);
    const endMs = atMs + Math.floor(draw.maxLengthMs * (0.1 + 0.9 * random.next()));
    const node = names[random.int(names.length)]!;
    const kind = kinds[random.int(kinds.length)]!;
    const [start, end] = drawnFault(kind, node, names, random);
    faults.push({ atMs, ...start }, { atMs: endMs, ...end });
  }
  // Stable: faults at the same time keep the order they were drawn in.
  return faults
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.atMs - b.f.atMs || a.i - b.i)
    .map((x) => x.f);
}

/** One drawn fault on `node` and what undoes it. */
function drawnFault(
  kind: DrawnKind,
  node: string,
  names: readonly string[],
  random: SimRandom,
): [SimAction, SimAction] {
  switch (kind) {
    case 'crash':
      return [
        { kind: 'crash', node },
        { kind: 'restart', node },
      ];
    case 'pause':
      return [
        { kind: 'pause', node },
        { kind: 'unpause', node },
      ];
    case 'partition': {
      const size = 1 + random.int(Math.max(1, Math.floor(names.length / 2)));
      const group = shuffled(names, random).slice(0, size).sort();
      return [{ kind: 'partition', group, oneWay: random.chance(0.3) }, { kind: 'heal' }];
    }
    case 'skew':
      return [
        { kind: 'skew', node, ms: Math.round((random.next() * 2 - 1) * 20_000) },
        { kind: 'skew', node, ms: 0 },
      ];
    case 'links': {
      const rule: LinkRule = {
        peer: '*',
        direction: random.chance(0.5) ? 'out' : 'in',
        latencyMs: 50 + random.int(950),
        jitterMs: random.int(200),
        loss: random.chance(0.5) ? random.int(30) / 100 : 0,
        ...(random.chance(0.3) ? { rateBps: 64_000 + random.int(936_000) } : {}),
      };
      return [
        { kind: 'links', node, links: [rule] },
        { kind: 'links', node, links: [] },
      ];
    }
    case 'disk':
      return [
        {
          kind: 'disk',
          node,
          faults: {
            full: random.chance(0.5),
            writeDelayMs: random.int(300),
            fsyncDelayMs: random.int(300),
            loseUnsynced: random.chance(0.5),
          },
        },
        { kind: 'disk', node, faults: NO_DISK_FAULTS },
      ];
  }
}

export async function applyFault(
  fault: SimAction,
  nodes: ReadonlyMap<string, SimNode>,
  network: SimNetwork,
): Promise<void> {
  const node = 'node' in fault ? nodes.get(fault.node) : undefined;
  if ('node' in fault && node === undefined)
    throw new Error(`a fault names no node of the run: ${fault.node}`);
  switch (fault.kind) {
    case 'crash':
      return node!.crash();
    case 'restart':
      return node!.start();
    case 'pause':
      return node!.pause();
    case 'unpause':
      return node!.unpause();
    case 'partition': {
      const inside = new Set(fault.group);
      for (const a of inside)
        for (const b of nodes.keys())
          if (!inside.has(b)) {
            network.cut(a, b);
            if (!fault.oneWay) network.cut(b, a);
          }
      return;
    }
    case 'split': {
      const groupOf = (n: string) => fault.groups.findIndex((g) => g.includes(n));
      for (const n of fault.groups.flat())
        if (!nodes.has(n)) throw new Error(`a fault names no node of the run: ${n}`);
      for (const a of nodes.keys())
        for (const b of nodes.keys()) if (groupOf(a) !== groupOf(b)) network.cut(a, b);
      return;
    }
    case 'oneWay':
      for (const n of [fault.from, fault.to])
        if (!nodes.has(n)) throw new Error(`a fault names no node of the run: ${n}`);
      network.cut(fault.from, fault.to);
      return nodes.get(fault.to)!.noteNetConditions();
    case 'heal': {
      const deaf = [...nodes.values()].filter((n) => network.deafCount(n.name) > 0);
      network.heal();
      for (const n of deaf) n.noteNetConditions();
      return;
    }
    case 'links':
      for (const r of fault.links)
        if (r.peer !== '*' && !nodes.has(r.peer))
          throw new Error(`a fault names no node of the run: ${r.peer}`);
      network.shape(fault.node, fault.links);
      return node!.noteNetConditions();
    case 'disk':
      return node!.setDiskFaults(fault.faults);
    case 'disconnect':
      return network.disconnect(fault.node);
    case 'connect':
      return network.connect(fault.node);
    case 'skew':
      return node!.skew(fault.ms);
  }
}

function shuffled<T>(items: readonly T[], random: SimRandom): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool;
}
