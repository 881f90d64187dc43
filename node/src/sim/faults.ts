/**
 * A simulated run's faults as data: each at a virtual time after the network's start, on a node
 * or a group of nodes. A schedule is drawn from the seed (`drawFaults`) or written by hand (a
 * test, a shrunk failure); `applyFault` is the one place a fault meets the simulated network.
 * A seed run undoes every fault after the last (SimCluster.healAll), so its liveness is judged on
 * a whole network.
 */
import type { SimRandom } from './random.js';
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
  /** Every cut ended. */
  | { readonly kind: 'heal' };

/** An action `atMs` virtual milliseconds after the network's start. */
export type SimFault = SimAction & { readonly atMs: number };

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
    case 'heal':
      return network.heal();
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
