/**
 * The partition shapes Jepsen uses, as groups of node names (two nodes talk when some group holds
 * both; partition.ts), over the nodes in the order given:
 *   minority  the last ⌊(n-1)/2⌋ nodes apart from the rest (the first keep a majority);
 *   halves    the first ⌊n/2⌋ apart from the rest;
 *   bridge    two halves and the middle node in both (it sees every node, they only their side);
 *   ring      each node sees its neighbours on a ring up to k away, a majority (2k+1 > n/2) with
 *             itself, and no two nodes see the same majority: groups of k+1 consecutive nodes.
 * Pure.
 */

export const SHAPES = ['minority', 'halves', 'bridge', 'ring'] as const;
export type Shape = (typeof SHAPES)[number];

/** The fewest nodes a shape needs to cut anything. */
export const SHAPE_MIN_NODES: Record<Shape, number> = { minority: 3, halves: 2, bridge: 3, ring: 4 };

export function shapeGroups(shape: Shape, names: readonly string[]): string[][] {
  const n = names.length;
  if (n < SHAPE_MIN_NODES[shape])
    throw new RangeError(`a ${shape} partition needs at least ${SHAPE_MIN_NODES[shape]} nodes, not ${n}`);
  switch (shape) {
    case 'minority': {
      const k = Math.floor((n - 1) / 2);
      return [names.slice(0, n - k), names.slice(n - k)];
    }
    case 'halves': {
      const k = Math.floor(n / 2);
      return [names.slice(0, k), names.slice(k)];
    }
    case 'bridge': {
      const mid = Math.floor(n / 2);
      return [names.slice(0, mid + 1), names.slice(mid)];
    }
    case 'ring': {
      // The least k whose neighbourhood (2k + 1 nodes) is a majority of n.
      const k = Math.ceil(Math.floor(n / 2) / 2);
      return names.map((_, i) => Array.from({ length: k + 1 }, (_, j) => names[(i + j) % n]!));
    }
  }
}
