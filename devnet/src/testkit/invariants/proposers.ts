/**
 * Invariant: every block's proposer (round 0, and every later round) is the one the validator-set
 * model names, replayed from the genesis and the blocks by the written rules, and the header is
 * signed with that validator's key.
 */
import type { NetContext } from '../context.js';
import type { Scope } from './scope.js';

export async function checkProposers(net: NetContext, scope: Scope): Promise<void> {
  if (scope.top < 1) return;
  for (const [node, first] of scope.nodes) await net.model.checkProposers([node], first, scope.top);
}
