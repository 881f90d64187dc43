/**
 * Equivocation evidence: one validator's two different signed proposals, prevotes or precommits
 * for the same height and round, with its key: enough for anyone to check (isProvenEquivocation).
 * Its JSON is what GET /evidence serves and the store keeps (docs/PROTOCOL.md, "Evidence").
 * The consensus driver finds it (evidence/equivocationDetector.ts).
 */
import { bytesToHex } from '../../crypto/hex.js';
import { proposalBytes, verifyProposalSignature, verifyVote, voteBytes } from './votes.js';

export type EvidenceKind = 'proposal' | 'prevote' | 'precommit';

/** One of the two signed messages: what differs between them, and its signature. */
export interface SignedVersion {
  readonly block_hash: string | null;
  /** Proposals only. */
  readonly pol_round?: number;
  readonly signature: string;
}

/** The evidence, as served by GET /evidence and kept in the store (docs/PROTOCOL.md). */
export interface Equivocation {
  readonly chain_id: string;
  readonly kind: EvidenceKind;
  readonly height: number;
  readonly round: number;
  readonly validator: string;
  readonly pub_key: string;
  /** The two messages ordered by their sign bytes, so that every node reports a pair alike. */
  readonly first: SignedVersion;
  readonly second: SignedVersion;
  /** When this node saw the second one (its clock, ms). */
  readonly detected_at: number;
}

/** The bytes each version signed. */
export function signBytesOf(
  e: Pick<Equivocation, 'chain_id' | 'kind' | 'height' | 'round'>,
  v: SignedVersion,
) {
  return e.kind === 'proposal'
    ? proposalBytes(e.chain_id, e.height, e.round, v.pol_round ?? -1, v.block_hash ?? '')
    : voteBytes(e.chain_id, e.kind, e.height, e.round, v.block_hash);
}

/** The same pair of messages has one id, whoever reports it and in whichever order they came. */
export function equivocationId(e: Equivocation): string {
  const bytes = (v: SignedVersion) => bytesToHex(signBytesOf(e, v));
  return `${e.kind}/${e.height}/${e.round}/${e.validator}/${bytes(e.first)}/${bytes(e.second)}`;
}

/** Whether both messages are signed by `pub_key` and differ: what a third party checks. */
export function isProvenEquivocation(e: Equivocation): boolean {
  const base = { height: e.height, round: e.round };
  const valid = (v: SignedVersion) =>
    e.kind === 'proposal'
      ? verifyProposalSignature(
          e.chain_id,
          { ...base, polRound: v.pol_round ?? -1, blockHash: v.block_hash ?? '', signature: v.signature },
          e.pub_key,
        )
      : verifyVote(
          e.chain_id,
          { ...base, kind: e.kind, blockHash: v.block_hash, validator: e.validator, signature: v.signature },
          e.pub_key,
        );
  const differ = bytesToHex(signBytesOf(e, e.first)) !== bytesToHex(signBytesOf(e, e.second));
  return differ && valid(e.first) && valid(e.second);
}
