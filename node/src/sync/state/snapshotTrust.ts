/**
 * Whether a snapshot at height h can be trusted (docs/CONSENSUS.md, "State sync: what a joiner
 * trusts"), pure, in two steps so that a joiner does no work for a peer whose blocks already fail:
 *
 * 1. Before the state (anchorProblem): blocks h and h+1 are of this chain, block h+1 follows block
 *    h (prev_hash), each commit is for its block, and more than 1/3 of the genesis validators
 *    signed block h+1: their precommit signatures verified against their keys in the genesis file.
 *    With fewer than 1/3 of them ever signing a block off the chain, a forged block h+1 cannot pass.
 * 2. With the restored state (restoredStateProblem): its root is block h's state_root, its last
 *    block hash block h's; commit h holds only valid precommits of validators it knows; commit
 *    h+1 passes the commit rule against the active set of the state (more than 2/3 of it), whose
 *    keys of the vouching genesis validators are their genesis keys; and the state is of this
 *    genesis: from protocol 1.2.0 it names its genesis hash (chain/block/genesisName.ts), which must
 *    be the joiner's. Sister devnets share seed, keys and chain id, so their blocks pass step 1
 *    and their states pass everything else: the genesis hash is what tells them apart. A state
 *    below 1.2.0 names none and cannot be told from a sister's.
 */
import {
  activeValidators,
  type Block,
  blockHash,
  type ChainState,
  type Commit,
  commitEntriesProblem,
  commitProblem,
  compareSemVer,
  namesGenesis,
  parseSemVer,
  stateRoot,
  verifyVote,
} from '../../chain/index.js';

/** The chain's genesis, as the joiner's genesis file (or a fork's --fork-genesis) gives it. */
export interface TrustedGenesis {
  /** The genesis state (height 0): its active validators anchor the check. */
  readonly state: ChainState;
  /** The hash of block 0. */
  readonly hash: string;
}

/** What a peer serves beside a snapshot at h: blocks h and h+1 with their commits. */
export interface SnapshotBlocks {
  readonly block: Block;
  readonly commit: Commit;
  readonly next: Block;
  readonly nextCommit: Commit;
}

export interface SnapshotAnchor extends SnapshotBlocks {
  /** The state restored from the snapshot at height h. */
  readonly state: ChainState;
  /**
   * The root of the state's entries as the content held them, when the reader computed it while
   * reading (snapshotRestore.ts: the same bytes the state was built from); else stateRoot(state).
   */
  readonly root?: string;
}

/** Why blocks h and h+1 are not a chain's blocks h and h+1 with their commits, or null. */
function blocksProblem(chainId: string, h: number, blocks: SnapshotBlocks): string | null {
  const { block, commit, next, nextCommit } = blocks;
  if (block.header.height !== h || next.header.height !== h + 1)
    return `blocks ${block.header.height} and ${next.header.height} served for a snapshot at ${h}`;
  for (const b of [block, next])
    if (b.header.chainId !== chainId)
      return `block ${b.header.height} is of chain ${b.header.chainId}, not ${chainId}`;
  const hash = blockHash(block.header);
  if (commit.height !== h || commit.blockHash !== hash) return `commit ${h} is not for block ${h}`;
  if (next.header.prevHash !== hash) return `block ${h + 1} does not follow block ${h}`;
  if (nextCommit.height !== h + 1 || nextCommit.blockHash !== blockHash(next.header))
    return `commit ${h + 1} is not for block ${h + 1}`;
  return null;
}

/** The genesis validators with a valid precommit for block h+1 in its commit, each once. */
function vouchingGenesisValidators(genesis: TrustedGenesis, nextCommit: Commit): Set<string> {
  const chainId = genesis.state.params.chainId;
  const keys = new Map(activeValidators(genesis.state).map((v) => [v.address, v.pubKey]));
  const vouching = new Set<string>();
  for (const s of nextCommit.signatures) {
    const pubKey = keys.get(s.validator);
    if (pubKey === undefined || vouching.has(s.validator)) continue;
    const vote = {
      kind: 'precommit' as const,
      height: nextCommit.height,
      round: nextCommit.round,
      blockHash: nextCommit.blockHash,
      ...s,
    };
    if (verifyVote(chainId, vote, pubKey)) vouching.add(s.validator);
  }
  return vouching;
}

/**
 * Step 1: why blocks h and h+1 are not proven by `genesis` alone, or null. No state is needed:
 * a joiner checks this before it fetches, inflates or decodes any chunk.
 */
export function anchorProblem(genesis: TrustedGenesis, h: number, blocks: SnapshotBlocks): string | null {
  const structure = blocksProblem(genesis.state.params.chainId, h, blocks);
  if (structure !== null) return structure;
  const trusted = activeValidators(genesis.state).length;
  const vouching = vouchingGenesisValidators(genesis, blocks.nextCommit).size;
  if (vouching * 3 <= trusted)
    return `only ${vouching} of ${trusted} genesis validators signed block ${h + 1} (more than 1/3 needed)`;
  return null;
}

/** The protocol version the genesis's own plans put the chain at by height h (validators may have added more). */
function genesisVersionAt(genesis: ChainState, h: number): string {
  let version = genesis.protocolVersion;
  for (const plan of genesis.upgrades) {
    const [at, target] = [parseSemVer(version), parseSemVer(plan.targetVersion)];
    if (plan.upgradeHeight <= h && at !== null && target !== null && compareSemVer(target, at) > 0)
      version = plan.targetVersion;
  }
  return version;
}

/** Why the restored state is not of `genesis` by the genesis hash it names (or fails to name), or null. */
function genesisTieProblem(genesis: TrustedGenesis | null, state: ChainState): string | null {
  const h = state.height;
  const named = state.genesisHash;
  if (named === null) {
    if (namesGenesis(state.protocolVersion))
      return `the state at ${h} is of protocol ${state.protocolVersion} but names no genesis (every state from 1.2.0 on does)`;
    if (genesis !== null && namesGenesis(genesisVersionAt(genesis.state, h)))
      return `the state at ${h} names no genesis, but this chain's genesis puts it at protocol ${genesisVersionAt(genesis.state, h)} there, whose states name theirs: another chain`;
    return null;
  }
  if (genesis !== null && named !== genesis.hash)
    return `the state at ${h} names genesis ${named}, not this chain's ${genesis.hash}: a chain of another genesis (a sister devnet of the same seed and keys?)`;
  return null;
}

/**
 * Step 2: why the restored state is not the state at h that blocks h and h+1 commit to, or null.
 * `genesis` null: no genesis to hold it to (a fork given none); then only the state's own validator
 * set vouches for block h+1 and nothing ties the state to a genesis.
 */
export function restoredStateProblem(genesis: TrustedGenesis | null, anchor: SnapshotAnchor): string | null {
  const { state, block, commit, nextCommit } = anchor;
  const h = state.height;
  const chainId = genesis?.state.params.chainId ?? state.params.chainId;
  if (state.params.chainId !== chainId) return `snapshot is of chain ${state.params.chainId}, not ${chainId}`;
  if (state.lastBlockHash !== blockHash(block.header))
    return `snapshot's last block hash is not that of block ${h}`;
  const root = anchor.root ?? stateRoot(state);
  if (root !== block.header.stateRoot)
    return `restored state root ${root} differs from block ${h}'s state_root ${block.header.stateRoot}`;
  // Commit h is stored and served again (GET /block/{h}/commit, block sync): none of its entries may
  // be junk. Its quorum is of the set at h-1, which the joiner does not hold: block h+1 proves h final.
  const stored = commitEntriesProblem(chainId, commit, state.validators);
  if (stored !== null) return `commit ${h}: ${stored}`;
  const active = activeValidators(state);
  const problem = commitProblem(chainId, nextCommit, active);
  if (problem !== null) return `commit ${h + 1} refused: ${problem}`;
  if (genesis !== null) {
    const keys = new Map(active.map((v) => [v.address, v.pubKey]));
    for (const v of activeValidators(genesis.state))
      if (keys.has(v.address) && keys.get(v.address) !== v.pubKey)
        return `the state gives genesis validator ${v.address} another key than the genesis`;
  }
  return genesisTieProblem(genesis, state);
}

/** Both steps: why `anchor` is not proven by `genesis` (null: by the state's own set only), or null. */
export function snapshotTrustProblem(genesis: TrustedGenesis | null, anchor: SnapshotAnchor): string | null {
  const h = anchor.state.height;
  const blocks =
    genesis === null
      ? blocksProblem(anchor.state.params.chainId, h, anchor)
      : anchorProblem(genesis, h, anchor);
  return blocks ?? restoredStateProblem(genesis, anchor);
}
