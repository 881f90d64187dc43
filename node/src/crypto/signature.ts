/**
 * 65-byte recoverable ECDSA signatures over a 32-byte digest: r (32) || s (32) || v (1), v in {0, 1}.
 * s must be in the lower half of the curve order (no malleable twins). The digest is signed as is
 * (no second hash): callers pass SHA-256 of the signing bytes.
 *
 * Checks go to the verifier in use (activeVerifier.ts) after the form checks of signatureForm.ts;
 * every verifier gives the same answer for every input. `verifyDigest` is for any key;
 * `verifyDigestForKnownKey` for keys that verify many signatures (validators'), where the pure-JS
 * verifier keeps tables of the key's multiples.
 */
import * as secp from '@noble/secp256k1';
import { currentVerifier } from './activeVerifier.js';
import { bytesToHex } from './hex.js';
import { checkItem, checkSignature, SIGNATURE_BYTES } from './signatureForm.js';
import { recoversTo } from './verifier.js';
import './nobleSetup.js';

export { SIGNATURE_BYTES };

/**
 * RFC 6979, low s: by the verifier in use where it signs (the native one: the same bytes, tested),
 * else by noble. A key out of range is refused by noble's own error either way.
 */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const sign = currentVerifier().sign;
  if (sign !== undefined && digest.length === 32 && privateKey.length === 32) {
    try {
      return sign(digest, privateKey);
    } catch {
      // out of range: noble says so below
    }
  }
  return nobleSign(digest, privateKey);
}

function nobleSign(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
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
  const checked = checkSignature(digest, signature);
  return checked === null ? null : currentVerifier().recover(checked);
}

/** True when `signatureHex` is a valid signature of `digest` by `publicKeyHex`. */
export function verifyDigest(digest: Uint8Array, signatureHex: string, publicKeyHex: string): boolean {
  const item = checkItem({ digest, signatureHex, publicKeyHex });
  return item !== null && recoversTo(currentVerifier().recover, item);
}

/**
 * The same answer as `verifyDigest` for every input, for keys that verify many signatures: the
 * validators' (votes, proposals, block headers). Not meant for keys that outsiders choose freely
 * (transaction senders): the pure-JS verifier builds a table for each new key.
 */
export function verifyDigestForKnownKey(
  digest: Uint8Array,
  signatureHex: string,
  publicKeyHex: string,
): boolean {
  const item = checkItem({ digest, signatureHex, publicKeyHex });
  return item !== null && currentVerifier().verifyKnownKey(item);
}
