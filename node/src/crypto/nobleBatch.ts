/**
 * Batch verification of the protocol's 65-byte recoverable signatures with @noble/secp256k1's
 * point arithmetic (the pure-JS verifier's verifyBatch): `nobleVerifyBatch(items)[i]` is exactly
 * the answer of recovery for items[i], at a fraction of the cost per signature when many are
 * checked at once.
 *
 * Why the single check reduces to a linear equation. R is fully known from (r, v): the point with
 * x = r and y of parity v (no such point: recovery fails, and so does this). Recovery returns
 * r⁻¹(s·R − e·G), so it returns the key P exactly when s·R = e·G + r·P, i.e. when
 *   D = u1·G + u2·P − R = 0,  u1 = e/s, u2 = r/s (mod n).
 * A batch checks Σ a_i·D_i = 0 in one multi-scalar multiplication (Straus: shared doublings,
 * signed sliding windows, the G terms summed into one fixed-base multiplication).
 *
 * Why that is sound.
 * - secp256k1 has cofactor 1: every point is a multiple of G, D_i = d_i·G for some d_i mod n, and
 *   Σ a_i·D_i = 0 exactly when Σ a_i·d_i ≡ 0 (mod n). No small-order component can hide a bad D_i.
 * - All valid: every D_i = 0, so the sum is 0 whatever the a_i. Valid signatures always pass.
 * - Some D_j ≠ 0: the coefficients are a random oracle's answer (SHA-256 of every input of the
 *   batch, Fiat–Shamir), fixed only after the inputs are. a_0 = 1 and the others are uniform in
 *   [1, 2^128]; for j ≥ 1 the sum vanishes for exactly one value of a_j mod n (the others fixed),
 *   probability 2^-128; if only D_0 ≠ 0 the sum is D_0 ≠ 0. A batch of one is thus an exact check.
 *   On failure the batch is bisected with the SAME coefficients (sum of the right half = total −
 *   left half, so only left halves cost a multiplication): every check is such a subset sum, each
 *   a false accept with probability ≤ 2^-128, at most 2·size checks per batch (≤ 2^-120 for 128
 *   items even when many are invalid). A grinding adversary needs ~2^128 hash evaluations.
 * - A false answer is never inferred: an item is refused only by recovery itself (small groups
 *   whose sum is not 0), or when R does not exist (recovery fails then too). The form checks are
 *   signatureForm.ts's, made before.
 *
 * Pure and deterministic (same inputs, same coefficients, same answers): no randomness, clock or
 * I/O. The module keeps a bounded LRU of decompressed public keys with their tables of odd
 * multiples (transaction senders repeat; decompression is a square root); it changes speed only.
 * Variable time: for public values only.
 */
import * as secp from '@noble/secp256k1';
import { sha256 } from './hash.js';
import { bytesToHex } from './hex.js';
import { PUBLIC_KEY_BYTES } from './keySizes.js';
import { nobleRecover } from './nobleRecover.js';
import { type CheckedItem, checkItem, SIGNATURE_BYTES, type SignedDigest } from './signatureForm.js';
import { recoversTo } from './verifier.js';
import './nobleSetup.js';

type Point = secp.Point;
const { p: P, n: N } = secp.Point.CURVE();
const G = secp.Point.BASE;
const ZERO = secp.Point.ZERO;

/*
 * Window widths of the signed sliding windows (wNAF): a w-bit window needs 2^(w-2) odd multiples
 * and adds about once every w+1 bits. The key's 256-bit scalar uses a table built once per key
 * (cached); R's 128-bit scalar a table built per signature, where 4 is the cheapest (table plus
 * additions, counted).
 */
const KEY_WINDOW = 6;
const R_WINDOW = 4;
/** Decompressed keys (and their tables) kept; about 3 KB each. */
const KEY_CACHE = 1024;
/** Groups this small whose sum is not 0 are settled one by one by recovery. */
const LEAF = 2;
const DOMAIN = new TextEncoder().encode('chain/verifyDigestBatch/v1');
const ITEM_BYTES = 32 + SIGNATURE_BYTES + PUBLIC_KEY_BYTES;

/** Modular square root for p ≡ 3 (mod 4): c^((p+1)/4), by an addition chain (253 squarings, 13 products). */
function sqrtCandidate(c: bigint): bigint {
  // x_k = c^(2^k − 1); (p+1)/4 in binary is 223 ones, 0, 22 ones, 0000, 11, 00.
  const sq = (a: bigint, times: number): bigint => {
    for (let i = 0; i < times; i++) a = (a * a) % P;
    return a;
  };
  const x2 = (sq(c, 1) * c) % P;
  const x3 = (sq(x2, 1) * c) % P;
  const x6 = (sq(x3, 3) * x3) % P;
  const x9 = (sq(x6, 3) * x3) % P;
  const x11 = (sq(x9, 2) * x2) % P;
  const x22 = (sq(x11, 11) * x11) % P;
  const x44 = (sq(x22, 22) * x22) % P;
  const x88 = (sq(x44, 44) * x44) % P;
  const x176 = (sq(x88, 88) * x88) % P;
  const x220 = (sq(x176, 44) * x44) % P;
  const x223 = (sq(x220, 3) * x3) % P;
  const t = (sq(x223, 23) * x22) % P;
  return sq((sq(t, 6) * x2) % P, 2);
}

/** The curve point with this x and y parity, or null: the checks of noble's lift_x (1 <= x < p, x³+7 a square). */
function liftX(x: bigint, odd: boolean): Point | null {
  if (x <= 0n || x >= P) return null;
  const c = (((x * x) % P) * x + 7n) % P;
  const y = sqrtCandidate(c);
  // y ≠ 0: x³ = −7 has no solution (it would be a point of order 2, and the order n is prime).
  if ((y * y) % P !== c) return null;
  return new secp.Point(x, (y & 1n) === (odd ? 1n : 0n) ? y : P - y, 1n);
}

/** [Q, 3Q, 5Q, …] up to (2^(w−1) − 1)·Q. */
function oddMultiples(q: Point, w: number): Point[] {
  const table = [q];
  const twice = q.double();
  for (let i = 1; i < 1 << (w - 2); i++) table.push(table[i - 1]!.add(twice));
  return table;
}

interface KeyEntry {
  readonly table: readonly Point[];
}
const keys = new Map<string, KeyEntry | null>();

/** The key's table of odd multiples, or null when the hex is not a compressed curve point (Point.fromBytes' answer). */
function keyEntry(publicKeyHex: string, bytes: Uint8Array): KeyEntry | null {
  let entry = keys.get(publicKeyHex);
  if (entry !== undefined) {
    keys.delete(publicKeyHex); // re-inserted below: most recently used last
  } else {
    const head = bytes[0];
    const point =
      head === 2 || head === 3 ? liftX(secp.etc.bytesToNumberBE(bytes.subarray(1)), head === 3) : null;
    entry = point === null ? null : { table: oddMultiples(point, KEY_WINDOW) };
    if (keys.size >= KEY_CACHE) keys.delete(keys.keys().next().value!);
  }
  keys.set(publicKeyHex, entry);
  return entry;
}

const NIBBLE_BITS = Array.from({ length: 16 }, (_, v) => [v & 1, (v >> 1) & 1, (v >> 2) & 1, (v >> 3) & 1]);

/**
 * Signed sliding-window digits of 0 <= k < 2^256: k = Σ digits[i]·2^i, each digit 0 or odd with
 * |digit| < 2^(w−1), and at least w positions between non-zero digits. Bits are read as JS numbers:
 * BigInt shifts per bit cost more than the point additions they select.
 */
function wnaf(k: bigint, w: number): Int8Array {
  const hex = k.toString(16);
  const length = hex.length * 4;
  const bits = new Uint8Array(length + w);
  for (let i = 0; i < hex.length; i++) {
    const nibble = NIBBLE_BITS[Number.parseInt(hex[hex.length - 1 - i]!, 16)]!;
    for (let b = 0; b < 4; b++) bits[4 * i + b] = nibble[b]!;
  }
  const digits = new Int8Array(length + 1);
  let carry = 0;
  let i = 0;
  while (i <= length) {
    if (bits[i] === carry) {
      i++; // bit 0 without carry, or 1 with carry (carry moves up): digit 0
      continue;
    }
    let word = carry;
    for (let b = 0; b < w; b++) word += bits[i + b]! << b;
    // word is odd; above 2^(w−1) it becomes word − 2^w with a carry into the next window.
    carry = word >> (w - 1);
    digits[i] = word - (carry << w);
    i += w;
  }
  return digits;
}

interface Item {
  readonly index: number;
  /** digest || signature || key: what the coefficients are derived from. */
  readonly bytes: Uint8Array;
  readonly s: bigint;
  readonly e: bigint;
  readonly r: bigint;
  readonly key: KeyEntry;
  /** Odd multiples of −R. */
  readonly minusR: readonly Point[];
  gScalar: bigint;
  keyDigits: Int8Array;
  rDigits: Int8Array;
}

/** The item ready for the equation, or null when R does not exist (recovery fails then too). */
function prepare(item: CheckedItem, index: number): Item | null {
  const { digest, signature, r, s, v, publicKeyHex, publicKey } = item;
  const key = keyEntry(publicKeyHex, publicKey);
  if (key === null) return null;
  const bigR = liftX(r, v === 1);
  if (bigR === null) return null;
  const bytes = new Uint8Array(ITEM_BYTES);
  bytes.set(digest, 0);
  bytes.set(signature, 32);
  bytes.set(publicKey, 32 + SIGNATURE_BYTES);
  const e = BigInt(`0x${bytesToHex(digest)}`) % N;
  const empty = new Int8Array(0);
  return {
    index,
    bytes,
    s,
    e,
    r,
    key,
    minusR: oddMultiples(bigR.negate(), R_WINDOW),
    gScalar: 0n,
    keyDigits: empty,
    rDigits: empty,
  };
}

/**
 * Fixes every item's scalars: a_i·u1_i for G, a_i·u2_i for P_i, a_i for −R_i, with a_0 = 1 and
 * a_i = 1 + the first 128 bits of SHA-256(seed || u32(i)), seed = SHA-256(domain || u32(count) ||
 * every item's digest || signature || key). The s_i are inverted together (one inversion).
 */
function fixScalars(items: readonly Item[]): void {
  const all = new Uint8Array(DOMAIN.length + 4 + items.length * ITEM_BYTES);
  all.set(DOMAIN, 0);
  new DataView(all.buffer).setUint32(DOMAIN.length, items.length);
  for (const [i, item] of items.entries()) all.set(item.bytes, DOMAIN.length + 4 + i * ITEM_BYTES);
  const seed = sha256(all);
  const block = new Uint8Array(36);
  block.set(seed, 0);

  // Montgomery's trick: prefix products, one inversion, then back.
  const prefix: bigint[] = [];
  let product = 1n;
  for (const item of items) {
    product = (product * item.s) % N;
    prefix.push(product);
  }
  let inverse = secp.etc.invert(product, N);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    const sInverse = i === 0 ? inverse : (inverse * prefix[i - 1]!) % N;
    inverse = (inverse * item.s) % N;
    let a = 1n;
    if (i > 0) {
      new DataView(block.buffer).setUint32(32, i);
      a = 1n + BigInt(`0x${bytesToHex(sha256(block).subarray(0, 16))}`);
    }
    const aOverS = (a * sInverse) % N;
    item.gScalar = (aOverS * item.e) % N;
    item.keyDigits = wnaf((aOverS * item.r) % N, KEY_WINDOW);
    item.rDigits = wnaf(a, R_WINDOW);
  }
}

function pick(table: readonly Point[], digit: number): Point {
  return digit > 0 ? table[(digit - 1) >> 1]! : table[(-digit - 1) >> 1]!.negate();
}

/** Σ a_i·(u1_i·G + u2_i·P_i − R_i) over the group: one Straus multiplication plus one fixed-base one. */
function combination(items: readonly Item[]): Point {
  let g = 0n;
  let top = 0;
  for (const item of items) {
    g += item.gScalar;
    top = Math.max(top, item.keyDigits.length, item.rDigits.length);
  }
  let acc = ZERO;
  for (let bit = top - 1; bit >= 0; bit--) {
    if (!acc.is0()) acc = acc.double();
    for (const item of items) {
      const dk = item.keyDigits[bit];
      if (dk) acc = acc.add(pick(item.key.table, dk));
      const dr = item.rDigits[bit];
      if (dr) acc = acc.add(pick(item.minusR, dr));
    }
  }
  return acc.add(G.multiply(g % N, false));
}

/**
 * Settles a group whose sum is known. Sum 0: all valid. Otherwise bisect: only the left half
 * costs a multiplication (right = sum − left), so one bad signature costs about one more batch.
 */
function settle(group: readonly Item[], sum: Point, items: readonly CheckedItem[], out: boolean[]): void {
  if (sum.is0()) {
    for (const item of group) out[item.index] = true;
    return;
  }
  if (group.length <= LEAF) {
    for (const { index } of group) {
      out[index] = recoversTo(nobleRecover, items[index]!);
    }
    return;
  }
  const half = group.length >> 1;
  const left = group.slice(0, half);
  const leftSum = combination(left);
  settle(left, leftSum, items, out);
  settle(group.slice(half), sum.subtract(leftSum), items, out);
}

/** For each item, exactly the answer of recovery: does it give item.publicKey? */
export function nobleVerifyBatch(items: readonly CheckedItem[]): boolean[] {
  const out = new Array<boolean>(items.length).fill(false);
  const ready: Item[] = [];
  items.forEach((item, i) => {
    const prepared = prepare(item, i);
    if (prepared !== null) ready.push(prepared);
  });
  if (ready.length === 0) return out;
  fixScalars(ready);
  settle(ready, combination(ready), items, out);
  return out;
}

/**
 * The batch equation alone (no bisection, no fallback): true when every item passes the form
 * checks and Σ a_i·D_i = 0, i.e. (false accepts aside, ≤ 2^-128) when every signature is valid.
 * nobleVerifyBatch starts with exactly this check; tests use it to see the equation itself work.
 */
export function batchEquationHolds(items: readonly SignedDigest[]): boolean {
  const ready: Item[] = [];
  for (const [i, item] of items.entries()) {
    const checked = checkItem(item);
    const prepared = checked === null ? null : prepare(checked, i);
    if (prepared === null) return false;
    ready.push(prepared);
  }
  if (ready.length === 0) return true;
  fixScalars(ready);
  return combination(ready).is0();
}
