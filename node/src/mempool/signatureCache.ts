/**
 * Remembers transactions whose signature was verified, so each signature is checked once per
 * node (signature checks are the throughput ceiling: a few hundred per second per core).
 * Keyed by hash AND signature: the hash does not cover the signature, so a copy of a known
 * transaction with a forged signature must not ride on the first one's check. Bounded: the
 * oldest entries are forgotten first.
 */
import { checkTxSignature, type Tx, type TxFailure } from '../chain/index.js';

export class SignatureCache {
  private readonly verified = new Map<string, true>();
  checks = 0;

  constructor(private readonly capacity = 200_000) {}

  /** Verifies (or recalls) the signature; returns the failure or null. */
  check(tx: Tx, hash: string, chainId: string): TxFailure | null {
    const key = `${hash}:${tx.signature}`;
    if (this.verified.has(key)) return null;
    this.checks++;
    const failure = checkTxSignature(tx, chainId);
    if (failure === null) this.remember(key);
    return failure;
  }

  /** The predicate applyBlock takes. */
  readonly isValid = (tx: Tx, hash: string, chainId: string): boolean =>
    this.check(tx, hash, chainId) === null;

  private remember(key: string): void {
    this.verified.set(key, true);
    if (this.verified.size > this.capacity) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
  }
}
