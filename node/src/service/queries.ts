/** What the RPC and peers read from the committed chain: receipts, and blocks with their commits for block sync. */
import type { Block, Commit } from '../chain/index.js';
import type { ReceiptView } from '../rpc/backend.js';
import type { ChainHead } from './chainHead.js';
import type { ChainServiceDeps } from './deps.js';

type QueryDeps = Pick<ChainServiceDeps, 'store' | 'mempool'>;

export async function receipt(deps: QueryDeps, head: ChainHead, hash: string): Promise<ReceiptView | null> {
  const state = head.state;
  if (deps.mempool.has(hash)) {
    return {
      tx_hash: hash,
      status: 'pending',
      block_height: null,
      timestamp: null,
      confirmations: 0,
      error: null,
    };
  }
  const stored = await deps.store.receipt(hash);
  if (stored === null) return null;
  const confirmations = stored.block_height === null ? 0 : state.height - stored.block_height + 1;
  return {
    tx_hash: stored.tx_hash,
    status: stored.status,
    block_height: stored.block_height,
    timestamp: stored.timestamp,
    confirmations,
    error: stored.error,
  };
}

/** Blocks with their commits from `from` to `to` (inclusive), for peers that sync. */
export async function blocksWithCommits(
  deps: QueryDeps,
  head: ChainHead,
  from: number,
  to: number,
): Promise<{ block: Block; commit: Commit }[]> {
  const out: { block: Block; commit: Commit }[] = [];
  for (let h = from; h <= Math.min(to, head.state.height); h++) {
    const block = await deps.store.block(h);
    const commit = await deps.store.commit(h);
    if (block === null || commit === null) break;
    out.push({ block, commit });
  }
  return out;
}
