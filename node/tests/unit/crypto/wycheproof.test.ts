/**
 * Every verifier against Project Wycheproof (wycheproof.ts), through each public entry point.
 *
 * What the protocol accepts, stated precisely (docs/PROTOCOL.md, "Keys and signatures"): a
 * vector's (r, s) under its key and digest is accepted with recovery id v exactly when
 *   (1) ECDSA verification accepts it (Wycheproof's `result` is "valid"),
 *   (2) s <= ⌊n/2⌋ (low s; the plain file's valid high-s signatures are refused), and
 *   (3) R = (e/s)·G + (r/s)·P has x = r itself (not r + n) and y of parity v,
 * and with no other v. (3) is computed here with @noble/secp256k1's generic point arithmetic,
 * which is none of the verifiers' code paths; the test also checks that this oracle agrees with
 * Wycheproof's verdict wherever (r, s) is in range. The bitcoin file already refuses high s.
 * There are no "acceptable" vectors in these files; were there any, all verifiers would have to agree.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as secp from '@noble/secp256k1';
import { verifyDigestBatch } from '../../../src/crypto/batchVerify.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import { recoverPublicKey, verifyDigest, verifyDigestForKnownKey } from '../../../src/crypto/signature.js';
import { VERIFIERS, withVerifier } from './verifiers.js';
import { loadWycheproof, type WycheproofCase } from './wycheproof.js';

const { n: N } = secp.Point.CURVE();
const hex32 = (k: bigint) => k.toString(16).padStart(64, '0');
const mod = (a: bigint) => ((a % N) + N) % N;
const mul = (p: secp.Point, k: bigint) => (k === 0n ? secp.Point.ZERO : p.multiply(k, false));

interface Mapped {
  readonly c: WycheproofCase;
  readonly publicKeyHex: string;
  /** The protocol signature for v = 0 and v = 1, when (r, s) fit 32 bytes each. */
  readonly signatures: readonly [string, string] | null;
  /** Whether the protocol accepts with v = 0 and v = 1 (see the top of this file). */
  readonly expected: readonly [boolean, boolean];
  /** The oracle's verdict, when 1 <= r, s < n: x(R) mod n = r (and low s, for the bitcoin file). */
  readonly oracleAccepts: boolean | null;
}

function map(c: WycheproofCase, lowSInResult: boolean): Mapped {
  const publicKeyHex = `${c.y & 1n ? '03' : '02'}${hex32(c.x)}`;
  const none = [false, false] as const;
  if (c.rs === null || c.rs.r >= 1n << 256n || c.rs.s >= 1n << 256n)
    return { c, publicKeyHex, signatures: null, expected: none, oracleAccepts: null };
  const { r, s } = c.rs;
  const signatures = [0, 1].map((v) => `${hex32(r)}${hex32(s)}0${v}`) as [string, string];
  if (r === 0n || r >= N || s === 0n || s >= N)
    return { c, publicKeyHex, signatures, expected: none, oracleAccepts: null };
  const e = BigInt(`0x${bytesToHex(c.digest)}`) % N;
  const sInverse = secp.etc.invert(s, N);
  const point = mul(secp.Point.BASE, mod(e * sInverse)).add(
    mul(secp.Point.fromAffine({ x: c.x, y: c.y }), mod(r * sInverse)),
  );
  if (point.is0()) return { c, publicKeyHex, signatures, expected: none, oracleAccepts: false };
  const R = point.toAffine();
  const lowS = s <= N >> 1n;
  const oracleAccepts = mod(R.x) === r && (lowS || !lowSInResult);
  const accept = (v: number) =>
    c.result === 'valid' && (lowS || lowSInResult) && R.x === r && Number(R.y & 1n) === v;
  return { c, publicKeyHex, signatures, expected: [accept(0), accept(1)], oracleAccepts };
}

const FILES = [
  { file: 'ecdsa_secp256k1_sha256_test.json', lowSInResult: false },
  { file: 'ecdsa_secp256k1_sha256_bitcoin_test.json', lowSInResult: true },
];

for (const { file, lowSInResult } of FILES) {
  const cases = loadWycheproof(file).map((c) => map(c, lowSInResult));

  describe(`Wycheproof ${file} (${cases.length} vectors)`, () => {
    it('maps as expected: the oracle agrees with Wycheproof, unencodable vectors are invalid, none is "acceptable"', () => {
      for (const m of cases) {
        const at = `tcId ${m.c.tcId} (${m.c.comment})`;
        assert.notEqual(m.c.result, 'acceptable', at);
        if (m.signatures === null)
          assert.equal(m.c.result, 'invalid', `${at}: no protocol form, yet not invalid`);
        if (m.oracleAccepts !== null)
          assert.equal(
            m.oracleAccepts,
            m.c.result === 'valid',
            `${at}: the oracle disagrees with Wycheproof`,
          );
      }
      // The vectors do exercise the protocol's own rules, not only ECDSA's.
      const valid = cases.filter((m) => m.c.result === 'valid');
      assert.ok(valid.some((m) => m.expected[0] || m.expected[1]));
      if (!lowSInResult)
        assert.ok(
          valid.some((m) => !m.expected[0] && !m.expected[1]),
          'a valid high-s vector is refused',
        );
    });

    for (const verifier of VERIFIERS) {
      it(`${verifier.name}: every entry point gives the protocol's answer for each vector and recovery id`, () =>
        withVerifier(verifier, () => {
          const batch = cases.flatMap((m) =>
            (m.signatures ?? []).map((signatureHex) => ({
              digest: m.c.digest,
              signatureHex,
              publicKeyHex: m.publicKeyHex,
            })),
          );
          const batchAnswers = verifyDigestBatch(batch);
          let k = 0;
          for (const m of cases) {
            if (m.signatures === null) continue;
            for (const v of [0, 1] as const) {
              const at = `tcId ${m.c.tcId} (${m.c.comment}) v=${v}`;
              const sig: string = m.signatures[v];
              const want: boolean = m.expected[v];
              assert.equal(verifyDigest(m.c.digest, sig, m.publicKeyHex), want, `verifyDigest ${at}`);
              assert.equal(verifyDigestForKnownKey(m.c.digest, sig, m.publicKeyHex), want, `known key ${at}`);
              assert.equal(batchAnswers[k++], want, `batch ${at}`);
              const recovered = recoverPublicKey(m.c.digest, Buffer.from(sig, 'hex'));
              if (want) assert.equal(recovered && bytesToHex(recovered), m.publicKeyHex, `recover ${at}`);
              else assert.notEqual(recovered && bytesToHex(recovered), m.publicKeyHex, `recover ${at}`);
            }
          }
        }));
    }

    it('all verifiers recover the same key (or none) for every vector and recovery id', () => {
      const answers = VERIFIERS.map((verifier) =>
        withVerifier(verifier, () =>
          cases.flatMap((m) =>
            (m.signatures ?? []).map((sig) => {
              const key = recoverPublicKey(m.c.digest, Buffer.from(sig, 'hex'));
              return key && bytesToHex(key);
            }),
          ),
        ),
      );
      for (const other of answers.slice(1)) assert.deepEqual(other, answers[0]);
    });
  });
}
