/**
 * Votes and commits (docs/PROTOCOL.md, "Votes and commits"; docs/CONSENSUS.md).
 *   vote_bytes = str("chain-vote/v1") str(chain_id) u8(kind: 1 prevote, 2 precommit)
 *                u64(height) u32(round) raw32(block_hash, or 32 zero bytes for nil)
 *   signature  = sign(H(vote_bytes)) by the validator, r || s || v.
 * A commit is the set of precommits for one block hash from more than 2/3 of the validators
 * that were active for that height; it is what makes a block final.
 */
import { sha256 } from '../../crypto/hash.js';
import { signDigestHex, verifyDigestForKnownKey } from '../../crypto/signature.js';
import { Writer } from '../codec/encoding.js';
import type { Validator } from '../state/types.js';
import { type Block, ZERO_HASH } from './header.js';

export const VOTE_DOMAIN = 'chain-vote/v1';
export type VoteKind = 'prevote' | 'precommit';

export interface Vote {
  readonly kind: VoteKind;
  readonly height: number;
  readonly round: number;
  /** Hex block hash, or null for a nil vote. */
  readonly blockHash: string | null;
  /** coinvalcons1… of the voter. */
  readonly validator: string;
  readonly signature: string;
}

export interface CommitSignature {
  readonly validator: string;
  readonly signature: string;
}

export interface Commit {
  readonly height: number;
  readonly round: number;
  readonly blockHash: string;
  readonly signatures: readonly CommitSignature[];
}

export function voteBytes(
  chainId: string,
  kind: VoteKind,
  height: number,
  round: number,
  blockHash: string | null,
): Uint8Array {
  return new Writer()
    .str(VOTE_DOMAIN)
    .str(chainId)
    .u8(kind === 'prevote' ? 1 : 2)
    .u64(height)
    .u32(round)
    .rawHex(blockHash ?? ZERO_HASH, 32)
    .finish();
}

export function signVote(chainId: string, v: Omit<Vote, 'signature'>, privateKey: Uint8Array): Vote {
  const digest = sha256(voteBytes(chainId, v.kind, v.height, v.round, v.blockHash));
  return { ...v, signature: signDigestHex(digest, privateKey) };
}

/** Checks a vote against its validator's key (a known key: see verifyDigestForKnownKey). */
export function verifyVote(chainId: string, v: Vote, pubKey: string): boolean {
  return verifyDigestForKnownKey(
    sha256(voteBytes(chainId, v.kind, v.height, v.round, v.blockHash)),
    v.signature,
    pubKey,
  );
}

/** More than 2/3 of n: the smallest count q with 3q > 2n. */
export function quorum(n: number): number {
  return Math.floor((2 * n) / 3) + 1;
}

/**
 * Null when `commit` is well formed for `validators` (the active set of its height): every entry
 * names a distinct validator of that set, and together they are more than 2/3 of it; otherwise
 * what is wrong. The signatures are not checked here (see commitProblem).
 *
 * Extra entries (an unknown signer, a validator repeated) are refused rather than skipped: an
 * honest node never builds such a commit, and whatever a node stores is served as the block's
 * commit (GET /block/{h}/commit, block sync), whose every entry the task market pays.
 */
export function commitShapeProblem(commit: Commit, validators: readonly Validator[]): string | null {
  const active = new Set(validators.map((v) => v.address));
  const seen = new Set<string>();
  for (const s of commit.signatures) {
    if (!active.has(s.validator))
      return `${s.validator} is not an active validator at height ${commit.height}`;
    if (seen.has(s.validator)) return `${s.validator} signs more than once`;
    seen.add(s.validator);
  }
  const need = quorum(validators.length);
  return seen.size >= need
    ? null
    : `commit has ${seen.size} precommits, needs ${need} of ${validators.length}`;
}

/**
 * Null when `commit` is well formed for `validators` (commitShapeProblem) and every entry is a
 * valid precommit signature by its validator for the commit's block; otherwise what is wrong.
 */
export function commitProblem(
  chainId: string,
  commit: Commit,
  validators: readonly Validator[],
): string | null {
  const shape = commitShapeProblem(commit, validators);
  if (shape !== null) return shape;
  const byAddress = new Map(validators.map((v) => [v.address, v]));
  for (const s of commit.signatures)
    if (!verifyVote(chainId, precommitOf(commit, s), byAddress.get(s.validator)!.pubKey))
      return `invalid precommit signature from ${s.validator}`;
  return null;
}

/** A commit's entry as the precommit its validator signed. */
function precommitOf(commit: Commit, s: Commit['signatures'][number]): Vote {
  return { kind: 'precommit', height: commit.height, round: commit.round, blockHash: commit.blockHash, ...s };
}

/**
 * Null when every entry of `commit` is a distinct validator `known` holds (by address), with a valid
 * precommit signature for the commit's block, and there is at least one; otherwise what is wrong.
 * Its quorum is not checked: a stored commit of height h is signed by the set of h-1, which a
 * node holding only the state at h does not have (a state-synced store's first commit, a store
 * checked at start); what it proves is that its block is the one those validators signed.
 */
export function commitEntriesProblem(
  chainId: string,
  commit: Commit,
  known: ReadonlyMap<string, Pick<Validator, 'pubKey'>>,
): string | null {
  if (commit.signatures.length === 0) return 'no precommit';
  const seen = new Set<string>();
  for (const s of commit.signatures) {
    const v = known.get(s.validator);
    if (v === undefined) return `${s.validator} is no validator`;
    if (seen.has(s.validator)) return `${s.validator} signs more than once`;
    seen.add(s.validator);
    if (!verifyVote(chainId, precommitOf(commit, s), v.pubKey))
      return `invalid precommit signature from ${s.validator}`;
  }
  return null;
}

/**
 * A block proposed for (height, round) by that round's proposer; polRound >= 0 re-proposes a block
 * that had 2/3 prevotes then. A signed chain value like a vote: consensus makes and checks it, p2p
 * carries it (p2p/messages.ts), evidence holds two of them.
 */
export interface Proposal {
  readonly height: number;
  readonly round: number;
  readonly polRound: number;
  readonly block: Block;
  readonly blockHash: string;
  /** coinvalcons1… of the round's proposer, and its signature over the proposal bytes. */
  readonly proposer: string;
  readonly signature: string;
}

export const PROPOSAL_DOMAIN = 'chain-proposal/v1';

/**
 *   proposal_bytes = str("chain-proposal/v1") str(chain_id) u64(height) u32(round)
 *                    u32(pol_round + 1) raw32(block_hash)
 * pol_round is -1 for a fresh block, so it travels as pol_round + 1 (0 = none).
 */
export function proposalBytes(
  chainId: string,
  height: number,
  round: number,
  polRound: number,
  blockHash: string,
): Uint8Array {
  return new Writer()
    .str(PROPOSAL_DOMAIN)
    .str(chainId)
    .u64(height)
    .u32(round)
    .u32(polRound + 1)
    .rawHex(blockHash, 32)
    .finish();
}

export function signProposal(
  chainId: string,
  p: { height: number; round: number; polRound: number; blockHash: string },
  privateKey: Uint8Array,
): string {
  return signDigestHex(
    sha256(proposalBytes(chainId, p.height, p.round, p.polRound, p.blockHash)),
    privateKey,
  );
}

export function verifyProposalSignature(
  chainId: string,
  p: { height: number; round: number; polRound: number; blockHash: string; signature: string },
  pubKey: string,
): boolean {
  return verifyDigestForKnownKey(
    sha256(proposalBytes(chainId, p.height, p.round, p.polRound, p.blockHash)),
    p.signature,
    pubKey,
  );
}

/** More than 1/3 of n: enough distinct validators in a later round to prove the network moved on. */
export function oneThirdPlus(n: number): number {
  return Math.floor(n / 3) + 1;
}
