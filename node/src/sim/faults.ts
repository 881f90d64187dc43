/**
 * A simulated run's faults as data: each at a virtual time after the network's start, on a node
 * or a group of nodes. A schedule is drawn from the seed (`drawFaults`) or written by hand (a
 * test, a shrunk failure); `applyFault` is the one place a fault meets the simulated network.
 * Every fault of a schedule is undone at its end (`healAll`), so a run's liveness is judged on a
 * whole network.
 */
import type { SimRandom } from './random.js';
import type { SimNetwork } from './simNetwork.js';
import type { SimNode } from './simNode.js';

export type SimFault =
  /** Killed: its store keeps what it committed; `restart` starts it again from there. */
  | { readonly atMs: number; readonly kind: 'crash'; readonly node: string }
  | { readonly atMs: number; readonly kind: 'restart'; readonly node: string }
  /** Frozen (SIGSTOP): its timers and messages wait; `unpause` lets them run. */
  | { readonly atMs: number; readonly kind: 'pause'; readonly node: string }
  | { readonly atMs: number; readonly kind: 'unpause'; readonly node: string }
  /** `group` cut off from the others: both ways, or only what the group sends (`oneWay`). */
  | {
      readonly atMs: number;
      readonly kind: 'partition';
      readonly group: readonly string[];
      readonly oneWay: boolean;
    }
  | { readonly atMs: number; readonly kind: 'heal' };

export interface FaultDraw {
  /** Faults are drawn within the first `spanMs` of the run. */
  readonly spanMs: number;
  /** How many faults (each with its end: a restart, an unpause, a heal). */
  readonly count: number;
  /** How long a fault lasts, at most (at least a tenth of it). */
  readonly maxLengthMs: number;
}

/** A schedule drawn from the seed: crashes, pauses and partitions, each undone within its length. */
export function drawFaults(random: SimRandom, names: readonly string[], draw: FaultDraw): SimFault[] {
  const faults: SimFault[] = [];
  for (let i = 0; i < draw.count; i++) {
    const atMs = Math.floor(random.next() * draw.spanMs);
    const endMs = atMs + Math.floor(draw.maxLengthMs * (0.1 + 0.9 * random.next()));
    const node = names[random.int(names.length)]!;
    const kind = random.int(3);
    if (kind === 0) {
      faults.push({ atMs, kind: 'crash', node }, { atMs: endMs, kind: 'restart', node });
    } else if (kind === 1) {
      faults.push({ atMs, kind: 'pause', node }, { atMs: endMs, kind: 'unpause', node });
    } else {
      const size = 1 + random.int(Math.max(1, Math.floor(names.length / 2)));
      const group = shuffled(names, random).slice(0, size).sort();
      faults.push(
        { atMs, kind: 'partition', group, oneWay: random.chance(0.3) },
        { atMs: endMs, kind: 'heal' },
      );
    }
  }
  // Stable: faults at the same time keep the order they were drawn in.
  return faults
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.atMs - b.f.atMs || a.i - b.i)
    .map((x) => x.f);
}

export async function applyFault(
  fault: SimFault,
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
    case 'heal':
      return network.heal();
  }
}

/** Every fault undone: cuts healed, paused nodes let go, crashed ones started again. */
export async function healAll(nodes: ReadonlyMap<string, SimNode>, network: SimNetwork): Promise<void> {
  network.heal();
  for (const n of nodes.values()) {
    n.unpause();
    await n.start();
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
