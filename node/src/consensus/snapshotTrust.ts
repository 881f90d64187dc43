/**
 * Whether a restored snapshot state can be trusted (docs/CONSENSUS.md, "State sync: what a joiner
 * trusts"), pure: the state at h must have the state root of block h's header and its position
 * (last block hash) must be block h; block h+1 must follow block h (prev_hash) and be final: its
 * commit holds only verified precommits of distinct validators of the active set of the state at h,
 * more than 2/3 of it (commitProblem, the block sync rule). The state vouches for that set, so a
 * chain forged from its own snapshot would vouch for itself; the anchor that breaks the circle is
 * the genesis file: more than 1/3 of the genesis validators (same address and key) must be among
 * the verified signers of block h+1. With fewer than 1/3 of them ever signing a block off the
 * chain, a forged state cannot pass. A chain whose genesis set has almost all left fails this
 * check, and the joiner falls back to block sync from genesis.
 */
import {
  activeValidators,
  type Block,
  blockHash,
  type ChainState,
  type Commit,
  commitProblem,
  stateRoot,
  verifyVote,
} from '../chain/index.js';

export interface SnapshotAnchor {
  /** The state restored from the snapshot at height h. */
  readonly state: ChainState;
  readonly block: Block;
  readonly commit: Commit;
  readonly next: Block;
  readonly nextCommit: Commit;
}

/** Why `anchor` is not proven by `genesis` (the state of the node's genesis file), or null. */
export function snapshotTrustProblem(genesis: ChainState, anchor: SnapshotAnchor): string | null {
  const { state, block, commit, next, nextCommit } = anchor;
  const h = state.height;
  const chainId = genesis.params.chainId;
  if (state.params.chainId !== chainId) return `snapshot is of chain ${state.params.chainId}, not ${chainId}`;
  if (block.header.height !== h || next.header.height !== h + 1)
    return `blocks ${block.header.height} and ${next.header.height} served for a snapshot at ${h}`;
  const hash = blockHash(block.header);
  if (state.lastBlockHash !== hash) return `snapshot's last block hash is not that of block ${h}`;
  const root = stateRoot(state);
  if (root !== block.header.stateRoot)
    return `restored state root ${root} differs from block ${h}'s state_root ${block.header.stateRoot}`;
  if (commit.height !== h || commit.blockHash !== hash) return `commit ${h} is not for block ${h}`;
  const stored = storedCommitProblem(chainId, commit, state);
  if (stored !== null) return `commit ${h}: ${stored}`;
  if (next.header.prevHash !== hash) return `block ${h + 1} does not follow block ${h}`;
  const nextHash = blockHash(next.header);
  if (nextCommit.height !== h + 1 || nextCommit.blockHash !== nextHash)
    return `commit ${h + 1} is not for block ${h + 1}`;
  const problem = commitProblem(chainId, nextCommit, activeValidators(state));
  if (problem !== null) return `commit ${h + 1} refused: ${problem}`;
  const trusted = activeValidators(genesis);
  const signers = new Map(activeValidators(state).map((v) => [v.address, v.pubKey]));
  const vouching = nextCommit.signatures.filter((s) =>
    trusted.some((t) => t.address === s.validator && signers.get(s.validator) === t.pubKey),
  ).length;
  if (vouching * 3 <= trusted.length)
    return `only ${vouching} of ${trusted.length} genesis validators signed block ${h + 1} (more than 1/3 needed)`;
  return null;
}

/**
 * Commit h is stored and served again (GET /block/{h}/commit, block sync), so none of its entries
 * may be junk: each a distinct validator the state at h knows, with a valid precommit signature.
 * Its quorum is not checked: it is of the set at h−1, which the joiner does not hold; block h's
 * finality is proven by block h+1 instead.
 */
function storedCommitProblem(chainId: string, commit: Commit, state: ChainState): string | null {
  if (commit.signatures.length === 0) return 'no precommit';
  const seen = new Set<string>();
  for (const s of commit.signatures) {
    const v = state.validators.get(s.validator);
    if (v === undefined) return `${s.validator} is no validator`;
    if (seen.has(s.validator)) return `${s.validator} signs more than once`;
    seen.add(s.validator);
    const vote = {
      kind: 'precommit' as const,
      height: commit.height,
      round: commit.round,
      blockHash: commit.blockHash,
      ...s,
    };
    if (!verifyVote(chainId, vote, v.pubKey)) return `invalid precommit signature from ${s.validator}`;
  }
  return null;
}
