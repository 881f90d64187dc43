/**
 * What a partition and the disconnected nodes mean for each node: the peers it refuses. Shared by
 * the runtimes that cut nodes off with the node's blocked-peers file.
 */
import type { PeerInfo } from './runtime.js';

export type Groups = readonly (readonly string[])[];

/** Whether a partition keeps `a` and `b` apart: in different groups, or one grouped and one not. */
export function apart(groups: Groups, a: string, b: string): boolean {
  return groups.find((g) => g.includes(a)) !== groups.find((g) => g.includes(b));
}

/** The peers `me` refuses: every other when it is cut off, the cut-off ones, those the partition keeps apart. */
export function refusedBy(
  me: string,
  all: readonly PeerInfo[],
  cut: ReadonlySet<string>,
  groups: Groups | null,
): PeerInfo[] {
  return all.filter(
    (p) =>
      p.name !== me && (cut.has(me) || cut.has(p.name) || (groups !== null && apart(groups, me, p.name))),
  );
}
