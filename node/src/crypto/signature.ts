/**
 * 65-byte recoverable ECDSA signatures over a 32-byte digest: r (32) || s (32) || v (1), v in {0, 1}.
 * s must be in the lower half of the curve order (no malleable twins). The digest is signed as is
 * (no second hash): callers pass SHA-256 of the signing bytes.
 */
import * as secp from '@noble/secp256k1';
import { bytesToHex, hexToBytes, isHex } from './hex.js';
import { PUBLIC_KEY_BYTES } from './keys.js';
import './nobleSetup.js';

export const SIGNATURE_BYTES = 65;

export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  // noble's recovered format is v || r || s; the protocol's is r || s || v.
  const nobleSig = secp.sign(digest, privateKey, { prehash: false, format: 'recovered', lowS: true });
  const out = new Uint8Array(SIGNATURE_BYTES);
  out.set(nobleSig.subarray(1), 0);
  out[64] = nobleSig[0]!;
  return out;
}

export function signDigestHex(digest: Uint8Array, privateKey: Uint8Array): string {
  return bytesToHex(signDigest(digest, privateKey));
}

/** The compressed public key that produced `signature` over `digest`, or null if none did. */
export function recoverPublicKey(digest: Uint8Array, signature: Uint8Array): Uint8Array | null {
  if (signature.length !== SIGNATURE_BYTES || digest.length !== 32) return null;
  const v = signature[64]!;
  if (v !== 0 && v !== 1) return null;
  const nobleSig = new Uint8Array(SIGNATURE_BYTES);
  nobleSig[0] = v;
  nobleSig.set(signature.subarray(0, 64), 1);
  try {
    const parsed = secp.Signature.fromBytes(nobleSig, 'recovered');
    if (parsed.hasHighS()) return null;
    const key = secp.recoverPublicKey(nobleSig, digest, { prehash: false });
    return key.length === PUBLIC_KEY_BYTES ? key : null;
  } catch {
    return null;
  }
}

/** True when `signatureHex` is a valid signature of `digest` by `publicKeyHex`. */
export function verifyDigest(digest: Uint8Array, signatureHex: string, publicKeyHex: string): boolean {
  if (!isHex(signatureHex, SIGNATURE_BYTES) || !isHex(publicKeyHex, PUBLIC_KEY_BYTES)) return false;
  const recovered = recoverPublicKey(digest, hexToBytes(signatureHex));
  return recovered !== null && bytesToHex(recovered) === publicKeyHex;
}
