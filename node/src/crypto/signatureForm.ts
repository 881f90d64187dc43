/**
 * The protocol's form checks on a signature, made once where it enters (docs/PROTOCOL.md, "Keys
 * and signatures"): a 32-byte digest; 65 bytes r (32) || s (32) || v (1); v in {0, 1} (2 and 3
 * would name R.x = r + n, which the protocol does not use); 1 <= r, s < n (SEC 1 v2 §4.1.4 step
 * 1); s <= ⌊n/2⌋ (a high-s twin is refused, never normalized); a public key of 33 bytes, 02 or 03
 * then x. Every verifier (verifier.ts) receives only what passed here, so they differ in speed,
 * never in what they accept. Whether the key is a curve point is left to the verifiers: a key that
 * is not one is never the recovered key, and they all refuse it.
 */
import * as secp from '@noble/secp256k1';
import { hexToBytes, isHex } from './hex.js';
import { PUBLIC_KEY_BYTES } from './keySizes.js';

export const SIGNATURE_BYTES = 65;
const DIGEST_BYTES = 32;
export const CURVE_ORDER = secp.Point.CURVE().n;
const HALF_ORDER = CURVE_ORDER >> 1n;

/** What a caller hands in: hex as on the wire. */
export interface SignedDigest {
  readonly digest: Uint8Array;
  readonly signatureHex: string;
  readonly publicKeyHex: string;
}

/** A signature that passed the form checks, with its numbers read once. */
export interface CheckedSignature {
  readonly digest: Uint8Array;
  /** r || s || v, 65 bytes. */
  readonly signature: Uint8Array;
  readonly r: bigint;
  readonly s: bigint;
  readonly v: 0 | 1;
}

/** A checked signature with the key it must recover to (33 bytes, first byte 02 or 03). */
export interface CheckedItem extends CheckedSignature {
  readonly publicKeyHex: string;
  readonly publicKey: Uint8Array;
}

function readNumber(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/** The signature with its numbers, or null when its form alone refuses it. */
export function checkSignature(digest: Uint8Array, signature: Uint8Array): CheckedSignature | null {
  if (digest.length !== DIGEST_BYTES || signature.length !== SIGNATURE_BYTES) return null;
  const v = signature[64];
  if (v !== 0 && v !== 1) return null;
  const r = readNumber(signature.subarray(0, 32));
  const s = readNumber(signature.subarray(32, 64));
  if (r === 0n || r >= CURVE_ORDER || s === 0n || s > HALF_ORDER) return null;
  return { digest, signature, r, s, v };
}

/** The item with its numbers and key bytes, or null when its form alone refuses it. */
export function checkItem(item: SignedDigest): CheckedItem | null {
  const { digest, signatureHex, publicKeyHex } = item;
  if (!isHex(signatureHex, SIGNATURE_BYTES) || !isHex(publicKeyHex, PUBLIC_KEY_BYTES)) return null;
  const publicKey = hexToBytes(publicKeyHex);
  if (publicKey[0] !== 2 && publicKey[0] !== 3) return null;
  const checked = checkSignature(digest, hexToBytes(signatureHex));
  return checked === null ? null : { ...checked, publicKeyHex, publicKey };
}
