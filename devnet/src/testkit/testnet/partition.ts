/**
 * A partition as the caller names it (groups of node names) checked and completed: every name
 * known, none in two groups, and the nodes named in no group form one more group, so the
 * runtime is always given the whole network.
 */
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
