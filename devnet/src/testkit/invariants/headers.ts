/**
 * Invariant: the same header at every height on every node. Each node's chain links (the hash of
 * its header at h, computed here from the header's bytes, is the prev_hash of its header at h+1),
 * and at every height every node has the header with the same hash as the others.
 */
import { blockFromJson, blockHash } from '@chain-devnet/node/chain';
import type { BlockAnswer } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';
import { blocksInScope, type Scope } from './scope.js';

function hashOf(net: NetContext, node: string, b: BlockAnswer): string {
  const parsed = blockFromJson(b);
  if (!parsed.ok)
    throw net.failure({
      node,
      height: b.header.height,
      expected: 'a well-formed block',
      found: parsed.reason,
    });
  return blockHash(parsed.block.header);
}

/** The hash of every height in scope (the same on every node). */
export async function checkSameHeaders(net: NetContext, scope: Scope): Promise<Map<number, string>> {
  const hashes = new Map<number, { hash: string; node: string }>();
  for (const node of scope.nodes.keys()) {
    const blocks = await blocksInScope(net, scope, node);
    let prev: string | null = null;
    for (const b of blocks) {
      const h = b.header.height;
      const hash = hashOf(net, node, b);
      if (prev !== null && b.header.prev_hash !== prev)
        throw net.failure({
          node,
          height: h,
          expected: `prev_hash ${prev} (the hash of its own header at ${h - 1})`,
          found: `prev_hash ${b.header.prev_hash}`,
        });
      prev = hash;
      const seen = hashes.get(h);
      if (seen === undefined) hashes.set(h, { hash, node });
      else if (seen.hash !== hash)
        throw net.failure({
          node,
          height: h,
          expected: `the header ${seen.node} has at ${h} (hash ${seen.hash})`,
          found: `a header with hash ${hash}: ${JSON.stringify(b.header)}`,
        });
    }
  }
  return new Map([...hashes].map(([h, x]) => [h, x.hash]));
}
