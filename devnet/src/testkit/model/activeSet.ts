/**
 * The active set as the rules order it (docs/RULES.md, "Proposers, slots and uptime"): consensus
 * addresses sorted by byte order of the address. Shared by the model and the chain reader, which
 * checks every node's proposer_index against it.
 */

/** An active set: consensus addresses in proposer order (byte order of the address). */
export type ActiveSet = readonly string[];

export function sortedSet(addresses: Iterable<string>): ActiveSet {
  return [...addresses].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
