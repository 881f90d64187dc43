/**
 * Invariant: no equivocation. Where a node serves GET /evidence (the double-sign evidence it
 * kept), the list is empty, but for the validators a run declares Byzantine. Where none does, what
 * the blocks show: at every height every node has the same header (checked before this), signed
 * by its proposer's key, so no proposer signed two final blocks at one height.
 *
 * The nodes of this repository serve GET /evidence (double-sign protection, issue 13); a node
 * that answers it 404 (an older build, another implementation) is checked by its blocks, and the
 * report says which way each node was checked.
 */
import { blockFromJson, verifyHeaderSignature } from '@chain-devnet/node/chain';
import { RpcError } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';
import type { Scope } from './scope.js';

/** One piece of evidence as GET /evidence lists it (only what this check reads). */
interface EvidenceItem {
  readonly validator: string;
  readonly kind: string;
  readonly height: number;
  readonly round: number;
}

export interface EquivocationResult {
  /** Nodes whose GET /evidence was read. */
  readonly byEvidence: readonly string[];
  /** Nodes whose blocks' signatures were checked instead. */
  readonly byBlocks: readonly string[];
}

export async function checkNoEquivocation(
  net: NetContext,
  scope: Scope,
  allowed: readonly string[] = [],
): Promise<EquivocationResult> {
  const byEvidence: string[] = [];
  const byBlocks: string[] = [];
  const allowedAddresses = new Set(allowed.map((v) => net.validatorAddress(v)));
  for (const [node, first] of scope.nodes) {
    let evidence: readonly EvidenceItem[] | null = null;
    try {
      evidence = (await net.rpc(node).get<{ evidence: EvidenceItem[] }>('/evidence')).evidence;
    } catch (e) {
      if (!(e instanceof RpcError && e.status === 404)) throw e;
    }
    if (evidence !== null) {
      const bad = evidence.find((x) => !allowedAddresses.has(x.validator));
      if (bad !== undefined)
        throw net.failure({
          node,
          height: bad.height,
          expected: 'no equivocation (GET /evidence empty)',
          found: `${net.model.nameOf(bad.validator)} signed two ${bad.kind}s at height ${bad.height}, round ${bad.round} (${evidence.length} pieces of evidence)`,
        });
      byEvidence.push(node);
      continue;
    }
    for (const b of await net.chain.blocksOf(node, first, scope.top)) {
      const parsed = blockFromJson(b);
      if (!parsed.ok || !verifyHeaderSignature(parsed.block.header))
        throw net.failure({
          node,
          height: b.header.height,
          expected: `the header signed by its pub_key (the proposer ${net.model.nameOf(b.header.proposer_address)})`,
          found: parsed.ok ? `signature ${b.header.signature} does not verify` : parsed.reason,
        });
    }
    byBlocks.push(node);
  }
  return { byEvidence, byBlocks };
}
