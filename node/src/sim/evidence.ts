/**
 * What the honest nodes of a run hold against its Byzantine ones (chain/block/evidence.ts): the
 * seed search's judgement (no honest validator accused) and the Byzantine scenario's (each
 * equivocator proven against on every honest node that is up).
 */
import { isProvenEquivocation } from '../chain/index.js';
import type { SimNode } from './simNode.js';

/**
 * A line for each thing wrong: evidence against an honest validator, or evidence not proven
 * (always); with `againstEveryLiar`, an honest node up that holds none against a validator that
 * equivocated. `addressOf`: a node's consensus address.
 */
export function evidenceProblems(
  nodes: readonly SimNode[],
  addressOf: (name: string) => string,
  o: { readonly againstEveryLiar: boolean },
): string[] {
  const liars = nodes.filter((n) => n.byzantine !== null).map((n) => n.name);
  if (liars.length === 0) return [];
  const addresses = new Map(liars.map((n) => [addressOf(n), n]));
  const problems: string[] = [];
  for (const node of nodes) {
    if (node.byzantine !== null || node.service === null) continue;
    const evidence = node.service.evidence();
    for (const e of evidence)
      if (!addresses.has(e.validator) || !isProvenEquivocation(e))
        problems.push(
          `evidence: ${node.name} holds evidence against ${e.validator}, not a Byzantine validator's, or not proven`,
        );
    if (!o.againstEveryLiar) continue;
    for (const [address, liar] of addresses)
      if (!evidence.some((e) => e.validator === address))
        problems.push(`evidence: ${node.name} holds no evidence against ${liar}, which equivocates`);
  }
  return problems;
}
