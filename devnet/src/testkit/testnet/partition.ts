/**
 * A partition as the caller names it (groups of node names) checked and completed: every name
 * known, none in two groups, and the nodes named in no group form one more group, so the
 * runtime is always given the whole network; then made, or ended, through the devnet's faults.
 */
import type { Devnet } from '../../devnet/devnet.js';
import { healAll } from '../../operations/net.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';

export function partitionGroups(
  all: readonly string[],
  groups: readonly (readonly string[])[],
): readonly (readonly string[])[] {
  const seen = new Set<string>();
  for (const g of groups)
    for (const n of g) {
      if (!all.includes(n)) throw new TestkitUsageError(`partition: no node ${n} (nodes: ${all.join(', ')})`);
      if (seen.has(n)) throw new TestkitUsageError(`partition: ${n} is in two groups`);
      seen.add(n);
    }
  const rest = all.filter((n) => !seen.has(n));
  return rest.length > 0 ? [...groups, rest] : groups;
}

/** Makes the partition on every runtime (the nodes' blocked-peers lists); a failure names the first node. */
export async function makePartition(
  devnet: Devnet,
  net: NetContext,
  groups: readonly (readonly string[])[],
  log: (line: string) => void,
): Promise<void> {
  const all = net.names();
  const full = partitionGroups(all, groups);
  try {
    await devnet.faults.partition(full, await devnet.peers());
  } catch (e) {
    throw await net.failureNow(all[0]!, 'the partition to be made', (e as Error).message, e);
  }
  log(`partition: ${full.map((g) => `[${g.join(', ')}]`).join(' ')}`);
}

/** Ends any partition, the one-way cuts too: every node talks to every other again (a node disconnected stays so). */
export async function endPartition(devnet: Devnet): Promise<void> {
  await healAll(devnet);
}
