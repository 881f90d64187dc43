/**
 * What a partition and the disconnected nodes mean for each node: the peers it refuses. Shared by
 * the runtimes that cut nodes off with the node's blocked-peers file.
 */
import type { PeerRefusal } from '@chain-devnet/node/testnet';
import type { PeerInfo } from './runtime.js';

export type Groups = readonly (readonly string[])[];

/**
 * Whether a partition keeps `a` and `b` apart: no group holds both, unless neither is in any group
 * (the nodes named nowhere are together). Groups may overlap (a bridge, a ring: net/shapes.ts).
 */
export function apart(groups: Groups, a: string, b: string): boolean {
  if (groups.some((g) => g.includes(a) && g.includes(b))) return false;
  return groups.some((g) => g.includes(a)) || groups.some((g) => g.includes(b));
}

/**
 * The peers `me` refuses. A node cut off refuses every peer, a stranger too (a list of the
 * devnet's nodes left any other peer free to talk to it, and to serve it block sync). While a
 * partition is in force a node talks only to the nodes on its side that are not cut off (an
 * allow-list, so a stranger is refused there too). Otherwise it refuses the nodes cut off.
 */
export function refusedBy(
  me: string,
  all: readonly PeerInfo[],
  cut: ReadonlySet<string>,
  groups: Groups | null,
): PeerRefusal {
  if (cut.has(me)) return { allowOnly: true, peers: [] };
  const others = all.filter((p) => p.name !== me);
  if (groups !== null)
    return {
      allowOnly: true,
      peers: others.filter((p) => !cut.has(p.name) && !apart(groups, me, p.name)).map((p) => p.peerId),
    };
  return { allowOnly: false, peers: others.filter((p) => cut.has(p.name)).map((p) => p.peerId) };
}
