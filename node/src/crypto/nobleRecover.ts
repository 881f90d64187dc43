/**
 * Public-key recovery with @noble/secp256k1 (SEC 1 v2 §4.1.6): Q = r⁻¹·(s·R − e·G), R the point
 * with x = r and y of parity v. The form checks are signatureForm.ts's.
 */
import * as secp from '@noble/secp256k1';
import { PUBLIC_KEY_BYTES } from './keySizes.js';
import type { CheckedSignature } from './signatureForm.js';
import './nobleSetup.js';

export function nobleRecover({ digest, signature, v }: CheckedSignature): Uint8Array | null {
  // noble's recovered format is v || r || s; the protocol's is r || s || v.
  const nobleSig = new Uint8Array(signature.length);
  nobleSig[0] = v;
  nobleSig.set(signature.subarray(0, 64), 1);
  try {
    const key = secp.recoverPublicKey(nobleSig, digest, { prehash: false });
    return key.length === PUBLIC_KEY_BYTES ? key : null;
  } catch {
    return null; // no point with x = r, or Q at infinity
  }
}
