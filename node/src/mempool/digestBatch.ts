/**
 * The one import through which the signature cache reaches batch verification. Until
 * crypto/batchVerify.ts (written in parallel, same API) lands, this checks one item at a time
 * with verifyDigest, which gives the same answers; then this file re-exports that module.
 */
import { verifyDigest } from '../crypto/signature.js';

export interface SignedDigest {
  readonly digest: Uint8Array;
  readonly signatureHex: string;
  readonly publicKeyHex: string;
}

export function verifyDigestBatch(items: readonly SignedDigest[]): boolean[] {
  return items.map((i) => verifyDigest(i.digest, i.signatureHex, i.publicKeyHex));
}
