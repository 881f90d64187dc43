/**
 * What a restarted validator takes back into the core of its height (heightConsensus.ts), from
 * what its signer kept (ConsensusSigner.resume): the polka of the block it is locked on, the last
 * vote it signed and its proposal of that round. Pure: values in, values out.
 */
import { type Block, blockHash, type Proposal, type Vote } from '../chain/index.js';
import type { LockedBlock, Resume } from './signer.js';
import type { VoteSet } from './voteSet.js';

/**
 * Adds to `prevotes` the kept polka's prevotes that still count: for this height, the lock's round
 * and block, from members of the active set (a damaged file may hold others; they are left out).
 */
export function addKeptPolka(
  prevotes: VoteSet,
  kept: LockedBlock,
  hash: string,
  height: number,
  members: ReadonlySet<string>,
): void {
  for (const v of kept.prevotes)
    if (
      v.kind === 'prevote' &&
      v.height === height &&
      v.round === kept.round &&
      v.blockHash === hash &&
      members.has(v.validator)
    )
      prevotes.add(v);
}

/** The vote a validator last signed at this height (its resume's last step is a vote), as it was signed. */
export function resumedVote(resumed: Resume, height: number, me: string): Vote {
  return {
    kind: resumed.last.step === 'prevote' ? 'prevote' : 'precommit',
    height,
    round: resumed.round,
    blockHash: resumed.last.blockHash,
    validator: me,
    signature: resumed.last.signature,
  };
}

/**
 * The proposal a validator signed in the round it resumes, as it was signed (null: none kept, or
 * its block is no longer valid, as after a damaged file).
 */
export function resumedProposal(
  resumed: Resume,
  height: number,
  me: string,
  isValid: (block: Block) => boolean,
): Proposal | null {
  const kept = resumed.proposal;
  if (kept === null || !isValid(kept.block)) return null;
  return {
    height,
    round: kept.round,
    polRound: kept.polRound,
    blockHash: blockHash(kept.block.header),
    block: kept.block,
    proposer: me,
    signature: kept.signature,
  };
}
