/**
 * Project Wycheproof's ECDSA secp256k1 SHA-256 vectors (vectors/README.md) mapped onto the
 * protocol's signatures. Wycheproof gives a message, an uncompressed public key and a DER
 * signature (r, s), and says whether ECDSA verification over SHA-256(message) must accept. The
 * protocol signs a digest as is with 65 bytes r || s || v, so each vector becomes: digest =
 * SHA-256(msg), key = the point compressed (the protocol's only form), and one protocol signature
 * per recovery id v in {0, 1}. A DER encoding that is not strict (X.690 §10: definite short
 * lengths, minimal positive INTEGERs, nothing after) or a number above 32 bytes has no protocol
 * form at all.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../../../src/crypto/hash.js';
import { hexToBytes } from '../../../src/crypto/hex.js';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '../../../../tests/unit/crypto/vectors');

export interface WycheproofCase {
  readonly file: string;
  readonly tcId: number;
  readonly comment: string;
  readonly flags: readonly string[];
  readonly result: 'valid' | 'invalid' | 'acceptable';
  readonly digest: Uint8Array;
  /** The uncompressed key's coordinates. */
  readonly x: bigint;
  readonly y: bigint;
  /** (r, s) from strict DER, or null when the encoding is not strict DER. */
  readonly rs: { readonly r: bigint; readonly s: bigint } | null;
}

interface File {
  readonly testGroups: readonly {
    readonly publicKey: { readonly wx: string; readonly wy: string };
    readonly tests: readonly {
      readonly tcId: number;
      readonly comment: string;
      readonly flags: readonly string[];
      readonly msg: string;
      readonly sig: string;
      readonly result: WycheproofCase['result'];
    }[];
  }[];
}

/** One strict DER INTEGER at `at`: [value, next offset], or null. */
function derInteger(b: Uint8Array, at: number): [bigint, number] | null {
  if (b[at] !== 0x02 || at + 2 > b.length) return null;
  const length = b[at + 1]!;
  const start = at + 2;
  if (length === 0 || length >= 0x80 || start + length > b.length) return null;
  if (b[start]! >= 0x80) return null; // negative
  if (b[start] === 0 && length > 1 && b[start + 1]! < 0x80) return null; // not minimal
  let n = 0n;
  for (let i = start; i < start + length; i++) n = (n << 8n) | BigInt(b[i]!);
  return [n, start + length];
}

/** (r, s) from SEQUENCE { INTEGER r, INTEGER s } in strict DER, or null. */
export function parseDer(hex: string): { r: bigint; s: bigint } | null {
  const b = hexToBytes(hex);
  if (b.length < 2 || b[0] !== 0x30 || b[1]! >= 0x80 || b[1]! + 2 !== b.length) return null;
  const r = derInteger(b, 2);
  if (r === null) return null;
  const s = derInteger(b, r[1]);
  if (s === null || s[1] !== b.length) return null;
  return { r: r[0], s: s[0] };
}

export function loadWycheproof(file: string): WycheproofCase[] {
  const json = JSON.parse(readFileSync(join(VECTORS, file), 'utf8')) as File;
  return json.testGroups.flatMap((group) =>
    group.tests.map((t) => ({
      file,
      tcId: t.tcId,
      comment: t.comment,
      flags: t.flags,
      result: t.result,
      digest: sha256(hexToBytes(t.msg)),
      x: BigInt(`0x${group.publicKey.wx}`),
      y: BigInt(`0x${group.publicKey.wy}`),
      rs: parseDer(t.sig),
    })),
  );
}
