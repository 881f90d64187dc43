/**
 * TEST ONLY: the Byzantine validator of `chain-node start --byzantine equivocate`, which the node
 * runs only on a devnet genesis. For each proposal and vote its consensus makes, it signs a second,
 * different one — a proposal of another block (built the same way, one second later), a vote for
 * nil instead of a block or for a block that does not exist instead of nil — and the driver sends
 * each version to a different half of its peers (P2PNetwork.publishSplit, armed by
 * splitPublish.ts). Its own consensus sees only the first versions. It signs without the priv-validator state (UncheckedSigner): it is the
 * attacker. Honest nodes must stay safe and live, and report the equivocation (docs/CONSENSUS.md).
 */

import type { Proposal } from '../chain/index.js';
import { type Block, blockHash, signProposal, signVote, type Vote } from '../chain/index.js';
import type { Equivocator as EquivocatorPort } from '../consensus/driver/equivocatorPort.js';
import type { ConsensusSigner, Resume, SignRequest } from '../consensus/signer.js';
import { validatorAddressOf } from '../crypto/address.js';
import { sha256, utf8Bytes } from '../crypto/hash.js';
import { bytesToHex } from '../crypto/hex.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import { signDigestHex } from '../crypto/signature.js';

export const BYZANTINE_MODES = ['equivocate'] as const;
export type ByzantineMode = (typeof BYZANTINE_MODES)[number];

/** Signs whatever it is asked, with no record: no double-sign protection. */
export class UncheckedSigner implements ConsensusSigner {
  readonly address: string;

  constructor(private readonly privateKey: Uint8Array) {
    this.address = validatorAddressOf(publicKeyHexOf(privateKey));
  }

  sign(req: SignRequest): string {
    return signDigestHex(sha256(req.signBytes), this.privateKey);
  }

  resume(): Resume | null {
    return null;
  }
}

export class Equivocator implements EquivocatorPort {
  /** The second proposal of each (height, round): re-sent as it was, not made anew. */
  private readonly twins = new Map<string, Proposal>();

  constructor(
    private readonly privateKey: Uint8Array,
    /** Another block for `round` of the proposal's height, with this timestamp. */
    private readonly build: (round: number, timestamp: number) => Block,
  ) {}

  /** The other vote for the same step: nil for a block, a block that does not exist for nil. */
  twinVote(chainId: string, v: Vote): Vote {
    const fake = bytesToHex(sha256(utf8Bytes(`equivocate/${v.height}/${v.round}`)));
    const { signature: _real, ...unsigned } = v;
    return signVote(chainId, { ...unsigned, blockHash: v.blockHash === null ? fake : null }, this.privateKey);
  }

  /** Another proposal for the same round: a fresh block built one second later. */
  twinProposal(chainId: string, p: Proposal): Proposal {
    const at = `${p.height}/${p.round}`;
    const known = this.twins.get(at);
    if (known !== undefined) return known;
    for (const key of this.twins.keys()) if (Number(key.split('/')[0]) < p.height) this.twins.delete(key);
    const block = this.build(p.round, p.block.header.timestamp + 1);
    const base = { height: p.height, round: p.round, polRound: -1, blockHash: blockHash(block.header) };
    const twin: Proposal = {
      ...base,
      block,
      proposer: p.proposer,
      signature: signProposal(chainId, base, this.privateKey),
    };
    this.twins.set(at, twin);
    return twin;
  }
}
