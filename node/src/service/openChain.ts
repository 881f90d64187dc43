/**
 * Opens the chain: a new data folder is initialized from the genesis; an existing one must
 * belong to the same chain and genesis, and its state is loaded as of its last block.
 */
import { fullStateDiff, type Genesis, stateRoot } from '../chain/index.js';
import { StoreError } from '../store/errors.js';
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
  const identity = await store.identity();
  const chainId = genesis.state.params.chainId;
  if (identity === null) {
    await store.initialize(
      { chainId, genesisHash: genesis.hash },
      genesis.block,
      genesis.state,
      fullStateDiff(genesis.state),
    );
    logger.info('data folder initialized from genesis', { chain_id: chainId, genesis_hash: genesis.hash });
  } else if (identity.chainId !== chainId) {
    throw new StoreError(
      'WRONG_CHAIN',
      `the data folder belongs to chain ${identity.chainId}, but the genesis is for ${chainId}: use another --home`,
    );
  } else if (identity.genesisHash !== genesis.hash) {
    throw new StoreError(
      'GENESIS_MISMATCH',
      `the data folder was created from genesis ${identity.genesisHash}, not ${genesis.hash}: use the original genesis file or another --home`,
    );
  }
  const state = await store.loadState();
  const block = await store.block(state.height);
  const root = stateRoot(state);
  if (block === null || block.header.stateRoot !== root) {
    throw new StoreError(
      'STORE_CORRUPT',
      `stored state at height ${state.height} has root ${root}, but block ${state.height} says ${block?.header.stateRoot ?? '(missing)'}`,
    );
  }
  const txCounts = await store.txCounts();
  // The kept evidence counts in chain_equivocations_total, as after the restart it was seen in.
  for (const e of deps.evidence.list()) deps.metrics.equivocations.inc({ validator: e.validator });
  await deps.snapshots.repair(state);
  head.open(genesis.hash, state, txCounts);
  gauges.refresh(state, txCounts);
  logger.info('chain state loaded', { height: state.height, last_hash: state.lastBlockHash });
}
