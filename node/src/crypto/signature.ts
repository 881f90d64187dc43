/**
 * 65-byte recoverable ECDSA signatures over a 32-byte digest: r (32) || s (32) || v (1), v in {0, 1}.
 * s must be in the lower half of the curve order (no malleable twins). The digest is signed as is
 * (no second hash): callers pass SHA-256 of the signing bytes.
 *
 * Two checks with the same answer for every input: `verifyDigest` recovers the key from the
 * signature and compares it; `verifyDigestForKnownKey` is several times faster for a key that
 * verifies many signatures (a validator's), from multiples of the key computed once.
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

const N = secp.Point.CURVE().n;

/*
 * Fixed-base multiplication in signed 4-bit windows: the table of a point P holds d·16^w·P for
 * d = 1..8 in each of 65 windows (520 points, about the work of one key recovery to build), and
 * n·P is then at most 65 additions instead of ~256 doublings and ~128 additions.
 */
const WINDOW_BITS = 4;
const WINDOW_HALF = 1 << (WINDOW_BITS - 1);
const WINDOWS = Math.floor(256 / WINDOW_BITS) + 1; // one more for the carry out of the top window
const WINDOW_MASK = BigInt((1 << WINDOW_BITS) - 1);
const WINDOW_SHIFT = BigInt(WINDOW_BITS);

function fixedBaseTable(p: secp.Point): readonly secp.Point[] {
  const table: secp.Point[] = [];
  let base = p;
  for (let w = 0; w < WINDOWS; w++) {
    let multiple = base;
    table.push(multiple);
    for (let d = 2; d <= WINDOW_HALF; d++) {
      multiple = multiple.add(base);
      table.push(multiple);
    }
    base = multiple.double();
  }
  return table;
}

/** scalar·P from P's table, for 0 <= scalar < 2^256. Variable time: public values only. */
function fixedBaseMultiply(table: readonly secp.Point[], scalar: bigint): secp.Point {
  let n = scalar;
  let acc = secp.Point.ZERO;
  for (let w = 0; w < WINDOWS; w++) {
    let digit = Number(n & WINDOW_MASK);
    n >>= WINDOW_SHIFT;
    if (digit > WINDOW_HALF) {
      digit -= 1 << WINDOW_BITS;
      n += 1n;
    }
    if (digit !== 0) {
      const q = table[w * WINDOW_HALF + Math.abs(digit) - 1]!;
      acc = acc.add(digit < 0 ? q.negate() : q);
    }
  }
  return acc;
}

/** Tables of the keys verified last (about 100 KB each); null for a key that is not a curve point. */
const KNOWN_KEYS = 256;
const keyTables = new Map<string, readonly secp.Point[] | null>();

function keyTable(publicKeyHex: string): readonly secp.Point[] | null {
  let table = keyTables.get(publicKeyHex);
  if (table !== undefined) {
    keyTables.delete(publicKeyHex);
  } else {
    try {
      table = fixedBaseTable(secp.Point.fromBytes(hexToBytes(publicKeyHex)));
    } catch {
      table = null;
    }
    if (keyTables.size >= KNOWN_KEYS) keyTables.delete(keyTables.keys().next().value!);
  }
  keyTables.set(publicKeyHex, table);
  return table;
}

/**
 * The same answer as `verifyDigest` for every input, for keys that verify many signatures: the
 * validators' (votes, proposals, block headers). Instead of recovering a key it checks that
 * R = (e/s)·G + (r/s)·P is the point with x = r and the parity v, which holds exactly when
 * recovery from (r, s, v) gives P. The first signature of a key also builds its table (about one
 * recovery's work); the last 256 keys keep theirs. Not meant for keys that outsiders choose
 * freely (transaction senders): each new key would pay for a table.
 */
export function verifyDigestForKnownKey(
  digest: Uint8Array,
  signatureHex: string,
  publicKeyHex: string,
): boolean {
  if (digest.length !== 32 || !isHex(signatureHex, SIGNATURE_BYTES) || !isHex(publicKeyHex, PUBLIC_KEY_BYTES))
    return false;
  const signature = hexToBytes(signatureHex);
  const v = signature[64]!;
  const r = secp.etc.bytesToNumberBE(signature.subarray(0, 32));
  const s = secp.etc.bytesToNumberBE(signature.subarray(32, 64));
  // The checks recovery makes: v in {0, 1}, 1 <= r, s < n, and s in the lower half (low-s).
  if ((v !== 0 && v !== 1) || r === 0n || r >= N || s === 0n || s > N >> 1n) return false;
  const table = keyTable(publicKeyHex);
  if (table === null) return false;
  const sInverse = secp.etc.invert(s, N);
  const e = secp.etc.bytesToNumberBE(digest) % N;
  const point = secp.Point.BASE.multiply((e * sInverse) % N, false).add(
    fixedBaseMultiply(table, (r * sInverse) % N),
  );
  if (point.is0()) return false;
  const { x, y } = point.toAffine();
  return x === r && Number(y & 1n) === v;
}
