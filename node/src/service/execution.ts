/**
 * The chain rules run against the last committed state: a block checked (the signatures not yet
 * verified checked in one batch first) and a proposal built from the mempool.
 */
import { applyBlock, type Block, type BlockResult, buildBlock, txHash } from '../chain/index.js';
import type { ChainHead } from './chainHead.js';
import type { ChainServiceDeps } from './deps.js';

type ExecutionDeps = Pick<ChainServiceDeps, 'migrations' | 'signatures' | 'mempool' | 'now'>;

/**
 * Checks `block` on top of the last committed state; throws BlockError when invalid. The
 * signatures of its transactions this node has not verified yet (not received by gossip) are
 * verified first, in one batch.
 */
export function validateBlock(deps: ExecutionDeps, head: ChainHead, block: Block): BlockResult {
  const state = head.state;
  const chainId = state.params.chainId;
  return applyBlock(state, block, {
    migrations: deps.migrations,
    genesisHash: head.genesisHash,
    isSignatureValid: deps.signatures.predicateFor(
      block.txs.map((tx) => ({ tx, hash: txHash(tx, chainId) })),
      chainId,
    ),
  });
}

/** A new block for (next height, round) from the mempool, built and signed by `privateKey` at `timestamp`. */
export function buildProposal(
  deps: ExecutionDeps,
  head: ChainHead,
  privateKey: Uint8Array,
  round: number,
  timestamp: number,
): { block: Block; result: BlockResult } {
  const state = head.state;
  return buildBlock(
    state,
    deps.mempool.select(state, state.params.blockGasLimit),
    { timestamp, round, privateKey },
    { migrations: deps.migrations, genesisHash: head.genesisHash, isSignatureValid: deps.signatures.isValid },
  );
}
