/**
 * Whom each node of a generated network dials at start (its bootstrap peers).
 *
 * Up to FULL_MESH_NODES nodes, every node dials every other, as before. Above it, every node
 * dialling every other costs n(n-1)/2 connections, each a noise handshake, an identify exchange,
 * a peer-store entry and pings: 210 at 21 validators and 1,225 at 50, whose start-up CPU on a
 * 2-core machine was most of `devnet up`'s time at 21 and kept 50 from ever reaching a first block
 * (docs/BENCHMARKS.md). Gossipsub needs no full mesh: it relays every message over a mesh of 3-6
 * peers per node, so a node needs only enough connections for a well-connected graph of short
 * paths.
 *
 * Above the threshold node i dials i+1, i+2, i+4, … (every power of two below n, modulo n), and
 * is dialled by i-1, i-2, i-4, …: about 2·log2(n) peers each (10 at 21 nodes, 12 at 50), any node
 * within about log2(n)/2 hops of any other, and every run of consecutive nodes (and every node
 * and its ±2 neighbours) connected on its own, so a contiguous side of a partition still meets.
 * Deterministic: the same network gives every node the same peers on every start.
 */

/** The largest network whose nodes all dial each other. */
export const FULL_MESH_NODES = 10;

/**
 * The indexes of the nodes that node `index` of `count` dials, ascending distance: all others up
 * to FULL_MESH_NODES nodes, else the nodes a power of two after it (modulo `count`).
 */
export function dialedIndexes(index: number, count: number): number[] {
  if (count <= FULL_MESH_NODES) return [...Array(count).keys()].filter((i) => i !== index);
  const dialed = new Set<number>();
  for (let step = 1; step < count; step *= 2) dialed.add((index + step) % count);
  dialed.delete(index);
  return [...dialed];
}
