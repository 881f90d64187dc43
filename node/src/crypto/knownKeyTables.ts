/**
 * Checks for keys that verify many signatures (validators': votes, proposals, block headers)
 * with @noble/secp256k1's point arithmetic and tables of the key's multiples, the same answer as
 * recovery for every input. Instead of recovering a key it checks that
 * R = (e/s)·G + (r/s)·P is the point with x = r and the parity v, which holds exactly when
 * recovery from (r, s, v) gives P (SEC 1 v2 §4.1.6: Q = r⁻¹·(s·R − e·G)).
 */
import * as secp from '@noble/secp256k1';
import type { CheckedItem } from './signatureForm.js';
import { CURVE_ORDER as N } from './signatureForm.js';
import './nobleSetup.js';

/*
 * Fixed-base multiplication in signed windows of `bits` bits: the table of a point P holds
 * d·2^(bits·w)·P for d = 1..2^(bits-1) in each window w (one more window for the carry out of
 * the top one), and n·P is then at most one addition per window instead of ~256 doublings and
 * ~128 additions. A 4-bit table has 65 windows of 8 points (520 points, about the work of one key
 * recovery to build); an 8-bit table 33 windows of 128 (4,224 points, about 20 ms, ~1 MB).
 */
interface FixedBaseTable {
  readonly bits: number;
  readonly points: readonly secp.Point[];
}

function fixedBaseTable(p: secp.Point, bits: number): FixedBaseTable {
  const half = 1 << (bits - 1);
  const windows = Math.floor(256 / bits) + 1;
  const points: secp.Point[] = [];
  let base = p;
  for (let w = 0; w < windows; w++) {
    let multiple = base;
    points.push(multiple);
    for (let d = 2; d <= half; d++) {
      multiple = multiple.add(base);
      points.push(multiple);
    }
    base = multiple.double();
  }
  return { bits, points };
}

/** scalar·P from P's table, for 0 <= scalar < 2^256. Variable time: public values only. */
function fixedBaseMultiply(table: FixedBaseTable, scalar: bigint): secp.Point {
  const { bits, points } = table;
  const half = 1 << (bits - 1);
  const windows = Math.floor(256 / bits) + 1;
  const mask = BigInt((1 << bits) - 1);
  const shift = BigInt(bits);
  let n = scalar;
  let acc = secp.Point.ZERO;
  for (let w = 0; w < windows; w++) {
    let digit = Number(n & mask);
    n >>= shift;
    if (digit > half) {
      digit -= 1 << bits;
      n += 1n;
    }
    if (digit !== 0) {
      const q = points[w * half + Math.abs(digit) - 1]!;
      acc = acc.add(digit < 0 ? q.negate() : q);
    }
  }
  return acc;
}

/*
 * A key's table starts at 4-bit windows (cheap to build: a validator seen once costs little)
 * and is rebuilt with 8-bit windows once the key has verified WIDEN_AFTER signatures: 33
 * additions per check instead of 65. With 21 validators every node checks about 42 votes a
 * second, and these checks were a third of an idle node's CPU.
 */
const WIDEN_AFTER = 64;
/*
 * At most one table is widened per WIDEN_SPACING checks (about 20 ms of work each): every key of
 * a validator set reaches WIDEN_AFTER at about the same height, and widening 21 tables at once
 * on 21 nodes took about 4 s of both cores (a visible stall of the chain).
 */
const WIDEN_SPACING = 32;
let checksSinceWidening = WIDEN_SPACING;
interface KeyEntry {
  table: FixedBaseTable;
  uses: number;
}

/** Tables of the keys verified last; null for a key that is not a curve point. */
const KNOWN_KEYS = 128;
const keyTables = new Map<string, KeyEntry | null>();

function keyTable(publicKeyHex: string, publicKey: Uint8Array): FixedBaseTable | null {
  let entry = keyTables.get(publicKeyHex);
  if (entry !== undefined) {
    keyTables.delete(publicKeyHex);
  } else {
    try {
      entry = { table: fixedBaseTable(secp.Point.fromBytes(publicKey), 4), uses: 0 };
    } catch {
      entry = null;
    }
    if (keyTables.size >= KNOWN_KEYS) keyTables.delete(keyTables.keys().next().value!);
  }
  keyTables.set(publicKeyHex, entry);
  if (entry === null) return null;
  entry.uses++;
  checksSinceWidening++;
  if (entry.table.bits < 8 && entry.uses >= WIDEN_AFTER && checksSinceWidening >= WIDEN_SPACING) {
    entry.table = fixedBaseTable(entry.table.points[0]!, 8);
    checksSinceWidening = 0;
  }
  return entry.table;
}

/*
 * The generator's table, with windows of BASE_BITS bits (2.7 MB, about 65 ms to build): 26
 * additions per multiplication by G, where noble's own (8-bit windows, with a dummy addition for
 * every zero window to keep its timing flat, which public values do not need) costs 33. Built
 * after BASE_TABLE_AFTER checks, not at the first: a node's first checks are on the way to its
 * first block (devnet up), and a process that checks few signatures never needs it.
 */
const BASE_BITS = 10;
const BASE_TABLE_AFTER = 256;
let knownKeyChecks = 0;
let generatorTable: FixedBaseTable | null = null;

function multiplyBase(scalar: bigint): secp.Point {
  if (generatorTable === null && ++knownKeyChecks >= BASE_TABLE_AFTER)
    generatorTable = fixedBaseTable(secp.Point.BASE, BASE_BITS);
  return generatorTable === null
    ? secp.Point.BASE.multiply(scalar, false)
    : fixedBaseMultiply(generatorTable, scalar);
}

/**
 * The first signature of a key also builds its table (about one recovery's work), widened after
 * WIDEN_AFTER signatures; the last 128 keys keep theirs. Not meant for keys that outsiders choose
 * freely (transaction senders): each new key would pay for a table.
 */
export function nobleVerifyKnownKey(item: CheckedItem): boolean {
  const { digest, r, s, v, publicKeyHex, publicKey } = item;
  const table = keyTable(publicKeyHex, publicKey);
  if (table === null) return false;
  const sInverse = secp.etc.invert(s, N);
  const e = secp.etc.bytesToNumberBE(digest) % N;
  const point = multiplyBase((e * sInverse) % N).add(fixedBaseMultiply(table, (r * sInverse) % N));
  if (point.is0()) return false;
  const { x, y } = point.toAffine();
  return x === r && Number(y & 1n) === v;
}
