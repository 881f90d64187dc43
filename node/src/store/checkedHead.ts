/**
 * A store's head, checked before a node goes on from it (every start: service/openChain.ts; and
 * `devnet up --from` before a restored node starts: testnet/storedChain.ts): the store belongs to
 * this genesis (chain id and genesis hash), its state is that of its head block (the state root),
 * that block is the one its position names (the last block hash), and the head's commit is for that
 * block, every entry a distinct validator's valid precommit (chain's commitEntriesProblem). An
 * edit of the state that rewrites the header's state_root to match changes the block's hash, which
 * the commit's signatures no longer cover; the block below it must be the one the head points to.
 * What this cannot tell: a store written anew with the validators' keys (an archive carries them
 * all) from the chain's own (docs/PROTOCOL.md, "Archive format", what its checks prove).
 */
import { blockHash, type ChainState, commitEntriesProblem, type Genesis, stateRoot } from '../chain/index.js';
import type { ChainStore } from './chainStore.js';
import { StoreError } from './errors.js';

/** The store's identity against the genesis: WRONG_CHAIN or GENESIS_MISMATCH, else nothing. */
export async function checkIdentity(store: ChainStore, genesis: Genesis): Promise<void> {
  const identity = await store.identity();
  const chainId = genesis.state.params.chainId;
  if (identity === null)
    throw new StoreError(
      'STORE_CORRUPT',
      'the data folder holds no chain (no identity): remove it, or use another --home',
    );
  if (identity.chainId !== chainId)
    throw new StoreError(
      'WRONG_CHAIN',
      `the data folder belongs to chain ${identity.chainId}, but the genesis is for ${chainId}: use another --home`,
    );
  if (identity.genesisHash !== genesis.hash)
    throw new StoreError(
      'GENESIS_MISMATCH',
      `the data folder was created from genesis ${identity.genesisHash}, not ${genesis.hash}: use the original genesis file or another --home`,
    );
}

/** The state of a store of this genesis as of its head block, every check above passed; else STORE_CORRUPT. */
export async function loadCheckedHead(store: ChainStore, genesis: Genesis): Promise<ChainState> {
  await checkIdentity(store, genesis);
  const state = await store.loadState();
  const h = state.height;
  const block = await store.block(h);
  const root = stateRoot(state);
  if (block === null || block.header.stateRoot !== root)
    throw corrupt(
      `stored state at height ${h} has root ${root}, but block ${h} says ${block?.header.stateRoot ?? '(missing)'}`,
    );
  const hash = blockHash(block.header);
  if (hash !== state.lastBlockHash)
    throw corrupt(`block ${h} hashes to ${hash}, but the stored state follows block ${state.lastBlockHash}`);
  if (h === 0) {
    if (hash !== genesis.hash)
      throw corrupt(`block 0 is not the genesis block (${hash}, not ${genesis.hash})`);
    return state;
  }
  const commit = await store.commit(h);
  if (commit === null || commit.height !== h || commit.blockHash !== hash)
    throw corrupt(
      `the commit of block ${h} is ${commit === null ? 'missing' : `for ${commit.blockHash} at ${commit.height}`}, not for block ${hash}`,
    );
  const entries = commitEntriesProblem(state.params.chainId, commit, state.validators);
  if (entries !== null) throw corrupt(`the commit of block ${h}: ${entries}`);
  // A state-synced store holds no block below its first; any other holds the block the head follows.
  if ((await store.stateSyncedFrom()) !== h) {
    const parent = await store.block(h - 1);
    if (parent === null || blockHash(parent.header) !== block.header.prevHash)
      throw corrupt(`block ${h} follows ${block.header.prevHash}, which is not the stored block ${h - 1}`);
  }
  return state;
}

const corrupt = (what: string) =>
  new StoreError('STORE_CORRUPT', `${what}: the store was changed or damaged`);
