/**
 * Finds equivocation: the driver shows this detector every authenticated proposal and vote; the
 * second message of a (kind, height, round, validator) whose sign bytes differ from the first
 * one's is evidence (chain/block/evidence.ts). A re-sent identical message is not (`sent_at` is not
 * signed), nor are two signatures over the same bytes. Pure: the driver logs, counts and stores
 * what it returns (the keeping is service/evidence.ts's and store/evidenceStore.ts's; the proof
 * itself, which anyone can check, is chain/block/evidence.ts).
 *
 * The sign bytes are not built here (the driver has just built them to check the signature):
 * within one slot they differ exactly when the fields below differ, since the rest of them is
 * the domain, the node's one chain id and the slot's own kind, height and round.
 */

import type { Proposal } from '../chain/index.js';
import {
  type Equivocation,
  type EvidenceKind,
  equivocationId,
  type SignedVersion,
  signBytesOf,
  type Vote,
  ZERO_HASH,
} from '../chain/index.js';
import { bytesToHex } from '../crypto/hex.js';

/**
 * Whether two versions of one slot have the same sign bytes: a vote signs its block hash, nil as
 * 32 zero bytes (so a nil vote re-sent with the zero hash spelled out is the same vote, not
 * evidence any peer could forge); a proposal signs its block hash and POL round. Hex is
 * lowercase-only on the wire, so equal strings are equal bytes.
 */
function sameSignBytesInSlot(a: SignedVersion, b: SignedVersion): boolean {
  return (a.block_hash ?? ZERO_HASH) === (b.block_hash ?? ZERO_HASH) && a.pol_round === b.pol_round;
}

/**
 * Distinct (kind, round, validator) slots, and reported pairs, remembered per height: a bound
 * against a validator that signs endless rounds or versions.
 */
const MAX_SLOTS_PER_HEIGHT = 20_000;

export class EquivocationDetector {
  /** First message seen per height, then per `kind/round/validator`. */
  private readonly firstSeen = new Map<number, Map<string, SignedVersion>>();
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
    return this.observe(chainId, v.kind, v.height, v.round, v.validator, pubKey, version, now);
  }

  observeProposal(chainId: string, p: Proposal, pubKey: string, now: number): Equivocation | null {
    const version = { block_hash: p.blockHash, pol_round: p.polRound, signature: p.signature };
    return this.observe(chainId, 'proposal', p.height, p.round, p.proposer, pubKey, version, now);
  }

  private observe(
    chainId: string,
    kind: EvidenceKind,
    height: number,
    round: number,
    validator: string,
    pubKey: string,
    version: SignedVersion,
    now: number,
  ): Equivocation | null {
    let slots = this.firstSeen.get(height);
    if (slots === undefined) {
      slots = new Map();
      this.firstSeen.set(height, slots);
    }
    const slot = `${kind}/${round}/${validator}`;
    const first = slots.get(slot);
    if (first === undefined) {
      if (slots.size < MAX_SLOTS_PER_HEIGHT) slots.set(slot, version);
      return null;
    }
    if (sameSignBytesInSlot(first, version)) return null;
    // Evidence is rare: only now are the sign bytes built, to order the pair alike on every node.
    const signed = (v: SignedVersion) =>
      bytesToHex(signBytesOf({ chain_id: chainId, kind, height, round }, v));
    const [a, b] = signed(first) < signed(version) ? [first, version] : [version, first];
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
