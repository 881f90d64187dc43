/**
 * Property test: the native and the pure-JS verifiers give the same answer on every case, through
 * every entry point (docs/PROTOCOL.md, "Keys and signatures"). Seeded random keys and digests,
 * signed, then spoiled the ways a forger or a broken peer would: a flipped bit anywhere in the
 * signature or digest, the high-s twin, a swapped or out-of-range recovery byte, the wrong key,
 * the key's negation (02 <-> 03), r or s zero or n, random bytes. Deterministic (fast-check seed).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { verifyDigestBatch } from '../../../src/crypto/batchVerify.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import { privateKeyFromSeed, publicKeyHexOf } from '../../../src/crypto/keys.js';
import {
  recoverPublicKey,
  signDigest,
  verifyDigest,
  verifyDigestForKnownKey,
} from '../../../src/crypto/signature.js';
import { CURVE_ORDER as N } from '../../../src/crypto/signatureForm.js';
import { NATIVE, VERIFIERS, withVerifier } from './verifiers.js';

const CASES = 2_000;
const KEYS = 48;
const BATCH = 64;
const MUTATIONS = [
  'valid',
  'signature bit flip',
  'digest bit flip',
  'high-s twin',
  'high s, same v',
  'swapped v',
  'v + 2',
  'wrong key',
  'negated key',
  'r = 0',
  's = 0',
  'r = n',
  's = n',
  'random signature',
] as const;

const hex32 = (k: bigint) => k.toString(16).padStart(64, '0');

interface Case {
  readonly mutation: (typeof MUTATIONS)[number];
  readonly digest: Uint8Array;
  readonly signatureHex: string;
  readonly publicKeyHex: string;
}

const arbitrary = fc.record({
  keySeeds: fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: KEYS, maxLength: KEYS }),
  cases: fc.array(
    fc.record({
      key: fc.nat(KEYS - 1),
      other: fc.nat(KEYS - 1),
      digest: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      // A third valid, so batches hold both kinds; the rest spread over the mutations.
      mutation: fc.oneof(
        { arbitrary: fc.constant(MUTATIONS[0]), weight: MUTATIONS.length / 2 },
        { arbitrary: fc.constantFrom(...MUTATIONS.slice(1)), weight: MUTATIONS.length },
      ),
      bit: fc.nat(65 * 8 - 1),
      random: fc.uint8Array({ minLength: 65, maxLength: 65 }),
    }),
    { minLength: CASES, maxLength: CASES },
  ),
});

function build(): Case[] {
  const { keySeeds, cases } = fc.sample(arbitrary, { seed: 2929, numRuns: 1 })[0]!;
  const keys = keySeeds.map((seed, i) => privateKeyFromSeed(seed, `agreement ${i}`));
  const pubs = keys.map(publicKeyHexOf);
  return cases.map(({ key, other, digest, mutation, bit, random }) => {
    const sig = signDigest(digest, keys[key]!);
    const r = BigInt(`0x${bytesToHex(sig.subarray(0, 32))}`);
    const s = BigInt(`0x${bytesToHex(sig.subarray(32, 64))}`);
    const v = sig[64]!;
    const make = (rr: bigint, ss: bigint, vv: number) =>
      `${hex32(rr)}${hex32(ss)}${vv.toString(16).padStart(2, '0')}`;
    let signatureHex = bytesToHex(sig);
    let publicKeyHex = pubs[key]!;
    let signed = digest;
    switch (mutation) {
      case 'valid':
        break;
      case 'signature bit flip': {
        const flipped = Uint8Array.from(sig);
        flipped[bit >> 3] = flipped[bit >> 3]! ^ (1 << (bit & 7));
        signatureHex = bytesToHex(flipped);
        break;
      }
      case 'digest bit flip':
        signed = Uint8Array.from(digest);
        signed[(bit >> 3) % 32] = signed[(bit >> 3) % 32]! ^ (1 << (bit & 7));
        break;
      case 'high-s twin':
        signatureHex = make(r, N - s, v ^ 1);
        break;
      case 'high s, same v':
        signatureHex = make(r, N - s, v);
        break;
      case 'swapped v':
        signatureHex = make(r, s, v ^ 1);
        break;
      case 'v + 2':
        signatureHex = make(r, s, v + 2);
        break;
      case 'wrong key':
        publicKeyHex = pubs[other === key ? (key + 1) % KEYS : other]!;
        break;
      case 'negated key':
        publicKeyHex = `${publicKeyHex.startsWith('02') ? '03' : '02'}${publicKeyHex.slice(2)}`;
        break;
      case 'r = 0':
        signatureHex = make(0n, s, v);
        break;
      case 's = 0':
        signatureHex = make(r, 0n, v);
        break;
      case 'r = n':
        signatureHex = make(N, s, v);
        break;
      case 's = n':
        signatureHex = make(r, N, v);
        break;
      case 'random signature':
        random[64] = random[64]! & 1; // a well-formed recovery byte, so the curve math runs
        signatureHex = bytesToHex(random);
        break;
    }
    return { mutation, digest: signed, signatureHex, publicKeyHex };
  });
}

/** Every entry point's answer for every case, with `verifier` in use. */
function answers(cases: readonly Case[]) {
  const batch: boolean[] = [];
  for (let at = 0; at < cases.length; at += BATCH)
    batch.push(...verifyDigestBatch(cases.slice(at, at + BATCH)));
  return cases.map((c, i) => {
    const key = recoverPublicKey(c.digest, Buffer.from(c.signatureHex, 'hex'));
    return {
      verifyDigest: verifyDigest(c.digest, c.signatureHex, c.publicKeyHex),
      knownKey: verifyDigestForKnownKey(c.digest, c.signatureHex, c.publicKeyHex),
      batch: batch[i],
      recovered: key && bytesToHex(key),
    };
  });
}

describe(`verifiers agree (${CASES} seeded cases)`, {
  skip: NATIVE === null && 'no native verifier on this platform',
}, () => {
  it('native and noble give the same answers through every entry point; valid ones pass, spoiled ones fail', () => {
    const cases = build();
    const [noble, native] = VERIFIERS.map((v) => withVerifier(v, () => answers(cases)));
    for (const [i, c] of cases.entries()) {
      const at = `case ${i} (${c.mutation}): ${c.signatureHex} by ${c.publicKeyHex}`;
      assert.deepEqual(native![i], noble![i], at);
      const want = c.mutation === 'valid';
      for (const answer of [noble![i]!.verifyDigest, noble![i]!.knownKey, noble![i]!.batch])
        assert.equal(answer, want, at);
    }
    // Every mutation was drawn (the seed covers them all).
    assert.deepEqual(new Set(cases.map((c) => c.mutation)), new Set(MUTATIONS));
  });
});

describe('signers agree (seeded keys and digests)', {
  skip: NATIVE === null && 'no native verifier on this platform',
}, () => {
  it('the native signer makes noble’s signature, byte for byte, and refuses what noble refuses', () => {
    const { keySeeds, cases } = fc.sample(arbitrary, { seed: 2930, numRuns: 1 })[0]!;
    const keys = keySeeds.map((seed, i) => privateKeyFromSeed(seed, `signing ${i}`));
    const [noble, native] = VERIFIERS;
    for (const [i, c] of cases.entries()) {
      const key = keys[c.key]!;
      const want = bytesToHex(withVerifier(noble!, () => signDigest(c.digest, key)));
      assert.equal(bytesToHex(withVerifier(native!, () => signDigest(c.digest, key))), want, `case ${i}`);
    }
    // Keys out of range (0, n, above n): noble's error, with either in use.
    for (const bad of [0n, N, N + 1n, 2n ** 256n - 1n]) {
      const key = Buffer.from(hex32(bad), 'hex');
      for (const v of VERIFIERS)
        assert.throws(() => withVerifier(v, () => signDigest(new Uint8Array(32), key)), `${v.name} ${bad}`);
    }
  });
});

describe('key derivations agree (seeded keys)', {
  skip: NATIVE === null && 'no native verifier on this platform',
}, () => {
  it('the native derivation gives noble’s public key, and refuses what noble refuses', () => {
    const { keySeeds } = fc.sample(arbitrary, { seed: 2931, numRuns: 1 })[0]!;
    const [noble, native] = VERIFIERS;
    for (const [i, seed] of keySeeds.entries()) {
      const key = privateKeyFromSeed(seed, `derive ${i}`);
      const want = withVerifier(noble!, () => publicKeyHexOf(key));
      assert.equal(
        withVerifier(native!, () => publicKeyHexOf(key)),
        want,
        `key ${i}`,
      );
    }
    for (const bad of [0n, N, N + 1n, 2n ** 256n - 1n]) {
      const key = Buffer.from(hex32(bad), 'hex');
      for (const v of VERIFIERS)
        assert.throws(() => withVerifier(v, () => publicKeyHexOf(key)), `${v.name} ${bad}`);
    }
  });
});
