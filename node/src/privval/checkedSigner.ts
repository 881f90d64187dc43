/**
 * The validator's signer with double-sign protection: every request is checked against the
 * priv-validator state (privValidatorState.ts) and, when signed, the new state is made durable
 * by `persist` BEFORE the signature is returned, so no signature leaves the node unrecorded. A
 * restarted node reads the state back and cannot sign anything that conflicts with what it
 * signed before the crash, and finds the block it is locked on and the proposal it signed. No
 * I/O of its own: `persist` is the edge's (home/privValidator.ts), so this room (privval/) stays
 * pure. It implements the signer the consensus core is given (consensus/signer.ts).
 */

import type { ConsensusSigner, KeptProposal, LockedBlock, Resume, SignRequest } from '../consensus/signer.js';
import { validatorAddressOf } from '../crypto/address.js';
import { sha256 } from '../crypto/hash.js';
import { bytesToHex } from '../crypto/hex.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import { signDigestHex } from '../crypto/signature.js';
import {
  afterSigning,
  decideSign,
  type LastSigned,
  type Lock,
  type PrivValidatorState,
  type RefusalReason,
  resumeAt,
} from './privValidatorState.js';

/** Why a signature was not given: the rules refused it, or its record could not be written. */
export type SignRefusal = RefusalReason | 'unrecorded';

export interface SignerHooks {
  /**
   * Makes the new last signature and lock durable, and first `newLockedBlock` when the lock moved
   * to another block and `newProposal` when a proposal is signed (null: the kept one stays);
   * throws when it cannot (nothing is signed then).
   */
  persist(
    last: LastSigned,
    lock: Lock | null,
    newLockedBlock: LockedBlock | null,
    newProposal: KeptProposal | null,
  ): void;
  onRefusal(reason: SignRefusal, detail: string, request: SignRequest): void;
}

export class CheckedSigner implements ConsensusSigner {
  readonly address: string;

  constructor(
    private readonly privateKey: Uint8Array,
    private state: PrivValidatorState,
    private readonly hooks: SignerHooks,
  ) {
    this.address = validatorAddressOf(publicKeyHexOf(privateKey));
  }

  /** The state as last recorded. */
  get current(): PrivValidatorState {
    return this.state;
  }

  sign(req: SignRequest): string | null {
    const bytesHex = bytesToHex(req.signBytes);
    const decision = decideSign(this.state, req, bytesHex);
    if (decision.kind === 'same') return decision.signature;
    if (decision.kind === 'refuse') {
      this.hooks.onRefusal(decision.reason, decision.detail, req);
      return null;
    }
    const signature = signDigestHex(sha256(req.signBytes), this.privateKey);
    const next = afterSigning(this.state, req, bytesHex, signature);
    try {
      const newLockedBlock = next.lockedBlock !== this.state.lockedBlock ? next.lockedBlock : null;
      const newProposal = next.proposal !== this.state.proposal ? next.proposal : null;
      this.hooks.persist(next.last, next.lock, newLockedBlock, newProposal);
    } catch (e) {
      this.hooks.onRefusal('unrecorded', (e as Error).message, req);
      return null;
    }
    this.state = next;
    return signature;
  }

  resume(height: number): Resume | null {
    return resumeAt(this.state, height);
  }
}
