/**
 * Which machine of the swarm a node first runs on (it stays there: its volume is on that
 * machine). As the manifest places it (`placement: NAME or ID`), else round robin by the node's
 * index over the machines that can run it, the manager first. Pure: the caller lists the machines.
 */
import { DevnetError } from '../../base/errors.js';
import type { Machine } from './swarmEngines.js';

export interface PlacementChoice {
  readonly index: number;
  readonly name: string;
  /** The manifest's placement, or null. */
  readonly asked: string | null;
}

/**
 * `usable`: the ready machines that have (or can pull) the node image, in round-robin order;
 * `why`: for a machine that is not usable, the reason (for the error of a node placed on it).
 */
export function chooseMachine(
  c: PlacementChoice,
  all: readonly Machine[],
  usable: readonly Machine[],
  why: ReadonlyMap<string, string>,
): Machine {
  if (c.asked !== null) {
    const m = all.find((x) => x.name === c.asked || x.id === c.asked);
    if (m === undefined)
      throw new DevnetError(
        'BAD_MANIFEST',
        `${c.name}: placement ${c.asked} is no machine of this swarm (machines: ${all.map((x) => x.name).join(', ')})`,
      );
    if (!usable.includes(m))
      throw new DevnetError(
        'NODE_START',
        `${c.name}: placement ${c.asked} cannot run it: ${why.get(m.id) ?? (m.ready ? 'not usable' : 'the machine is not ready and active (docker node ls)')}`,
      );
    return m;
  }
  if (usable.length === 0)
    throw new DevnetError(
      'NODE_START',
      `${c.name}: no machine of the swarm can run a node (${[...why.entries()].map(([id, w]) => `${all.find((m) => m.id === id)?.name ?? id}: ${w}`).join('; ') || 'none is ready'})`,
    );
  return usable[c.index % usable.length]!;
}
