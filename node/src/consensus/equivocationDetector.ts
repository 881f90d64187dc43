/**
 * Finds equivocation: the driver shows this detector every authenticated proposal and vote; the
 * second message of a (kind, height, round, validator) whose sign bytes differ from the first
 * one's is evidence (chain/evidence.ts). A re-sent identical message is not (`sent_at` is not
 * signed), nor are two signatures over the same bytes. Pure: the driver logs, counts and stores
 * what it returns.
 */
import {
  type Equivocation,
  type EvidenceKind,
  equivocationId,
  proposalBytes,
  type SignedVersion,
  type Vote,
  voteBytes,
} from '../chain/index.js';
import { bytesToHex } from '../crypto/hex.js';
import type { Proposal } from './types.js';

/**
 * Distinct (kind, round, validator) slots, and reported pairs, remembered per height: a bound
 * against a validator that signs endless rounds or versions.
 */
const MAX_SLOTS_PER_HEIGHT = 20_000;

interface Seen {
  readonly bytes: string;
  readonly version: SignedVersion;
}

export class EquivocationDetector {
  /** First message seen per height, then per `kind/round/validator`. */
  private readonly firstSeen = new Map<number, Map<string, Seen>>();
  /** Pairs already reported at each height (a third copy of either message reports nothing). */
  private readonly reported = new Map<number, Set<string>>();

  /** Forgets the heights below `height` (their messages are stale now). */
  forgetBelow(height: number): void {
    for (const h of this.firstSeen.keys()) if (h < height) this.firstSeen.delete(h);
    for (const h of this.reported.keys()) if (h < height) this.reported.delete(h);
  }

  /** An authenticated vote of `pubKey`'s validator: the evidence when it conflicts with an earlier one. */
  observeVote(chainId: string, v: Vote, pubKey: string, now: number): Equivocation | null {
    const version = { block_hash: v.blockHash, signature: v.signature };
    const bytes = voteBytes(chainId, v.kind, v.height, v.round, v.blockHash);
    return this.observe(chainId, v.kind, v.height, v.round, v.validator, pubKey, bytes, version, now);
  }

  observeProposal(chainId: string, p: Proposal, pubKey: string, now: number): Equivocation | null {
    const version = { block_hash: p.blockHash, pol_round: p.polRound, signature: p.signature };
    const bytes = proposalBytes(chainId, p.height, p.round, p.polRound, p.blockHash);
    return this.observe(chainId, 'proposal', p.height, p.round, p.proposer, pubKey, bytes, version, now);
  }

  private observe(
    chainId: string,
    kind: EvidenceKind,
    height: number,
    round: number,
    validator: string,
    pubKey: string,
    signBytes: Uint8Array,
    version: SignedVersion,
    now: number,
  ): Equivocation | null {
    let slots = this.firstSeen.get(height);
    if (slots === undefined) {
      slots = new Map();
      this.firstSeen.set(height, slots);
    }
    const slot = `${kind}/${round}/${validator}`;
    const bytes = bytesToHex(signBytes);
    const first = slots.get(slot);
    if (first === undefined) {
      if (slots.size < MAX_SLOTS_PER_HEIGHT) slots.set(slot, { bytes, version });
      return null;
    }
    if (first.bytes === bytes) return null;
    const [a, b] = first.bytes < bytes ? [first.version, version] : [version, first.version];
    const e: Equivocation = {
      chain_id: chainId,
      kind,
      height,
      round,
      validator,
      pub_key: pubKey,
      first: a,
      second: b,
      detected_at: now,
    };
    let reported = this.reported.get(height);
    if (reported === undefined) {
      reported = new Set();
      this.reported.set(height, reported);
    }
    const id = equivocationId(e);
    if (reported.has(id) || reported.size >= MAX_SLOTS_PER_HEIGHT) return null;
    reported.add(id);
    return e;
  }
}
