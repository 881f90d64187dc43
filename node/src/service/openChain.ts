/**
 * Opens the chain: a new data folder is initialized from the genesis; an existing one must
 * belong to the same chain and genesis, and its state is loaded as of its last block, checked
 * against that block and its commit (store/checkedHead.ts).
 */
import { fullStateDiff, type Genesis } from '../chain/index.js';
import { loadCheckedHead } from '../store/checkedHead.js';
import type { ChainGauges } from './chainGauges.js';
import type { ChainHead } from './chainHead.js';
import type { ChainServiceDeps } from './deps.js';

export async function openChain(
  deps: Pick<ChainServiceDeps, 'store' | 'logger' | 'evidence' | 'metrics' | 'snapshots'>,
  head: ChainHead,
  gauges: ChainGauges,
  genesis: Genesis,
): Promise<void> {
  const { store, logger } = deps;
  if ((await store.identity()) === null) {
    const chainId = genesis.state.params.chainId;
    await store.initialize(
      { chainId, genesisHash: genesis.hash },
      genesis.block,
      genesis.state,
      fullStateDiff(genesis.state),
    );
    logger.info('data folder initialized from genesis', { chain_id: chainId, genesis_hash: genesis.hash });
  }
  const state = await loadCheckedHead(store, genesis);
  const txCounts = await store.txCounts();
  // The kept evidence counts in chain_equivocations_total, as after the restart it was seen in.
  for (const e of deps.evidence.list()) deps.metrics.equivocations.inc({ validator: e.validator });
  await deps.snapshots.repair(state);
  head.open(genesis.hash, state, txCounts);
  gauges.refresh(state, txCounts);
  logger.info('chain state loaded', { height: state.height, last_hash: state.lastBlockHash });
}
