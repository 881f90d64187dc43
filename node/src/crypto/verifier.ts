/**
 * One interface for the implementations that check signatures, and the one in use. Each takes
 * only what signatureForm.ts passed and answers the protocol's question: does recovery from
 * (digest, r, s, v) give this key? (docs/PROTOCOL.md, "Keys and signatures"). They differ in
 * speed only; node/tests/unit/crypto/ runs the Wycheproof vectors and the property tests against each.
 *
 * The one in use is activeVerifier.ts's.
 */
import { bytesEqual } from './hex.js';
import type { CheckedItem, CheckedSignature } from './signatureForm.js';

export type VerifierName = 'noble' | 'native';

export interface Verifier {
  readonly name: VerifierName;
  /** The compressed (33-byte) key that recovers from the signature, or null if none does. */
  recover(signature: CheckedSignature): Uint8Array | null;
  /** True when recovery gives item.publicKey; tuned for keys that sign often (validators'). */
  verifyKnownKey(item: CheckedItem): boolean;
  /** verifyKnownKey's answer for each item; tuned for many keys at once (senders'). */
  verifyBatch(items: readonly CheckedItem[]): boolean[];
  /**
   * Where present, signs as signature.ts's signDigest does with noble (RFC 6979 nonces, low s),
   * byte for byte: r || s || v. Throws on a private key out of range.
   */
  readonly sign?: (digest: Uint8Array, privateKey: Uint8Array) => Uint8Array;
  /** Where present, keys.ts's publicKeyOf (compressed); throws on a private key out of range. */
  readonly publicKeyOf?: (privateKey: Uint8Array) => Uint8Array;
}

/** Recovery's answer for one item: the protocol's rule, which every verifyKnownKey must equal. */
export function recoversTo(recover: Verifier['recover'], item: CheckedItem): boolean {
  const key = recover(item);
  return key !== null && bytesEqual(key, item.publicKey);
}
