import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { batchEquationHolds, type SignedDigest, verifyDigestBatch } from '../../../src/crypto/batchVerify.js';
import { sha256 } from '../../../src/crypto/hash.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import { privateKeyFromSeed, publicKeyHexOf } from '../../../src/crypto/keys.js';
import { signDigest, verifyDigest, verifyDigestForKnownKey } from '../../../src/crypto/signature.js';
import { VERIFIERS, withVerifier } from './verifiers.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const hex32 = (n: bigint) => n.toString(16).padStart(64, '0');
const utf8 = (s: string) => new TextEncoder().encode(s);

const KEYS = Array.from({ length: 12 }, (_v, i) => privateKeyFromSeed(utf8('batch-verify'), `key ${i}`));
const PUBS = KEYS.map(publicKeyHexOf);

/** The reference: verifyDigest one item at a time. */
const reference = (items: readonly SignedDigest[]) =>
  items.map((i) => verifyDigest(i.digest, i.signatureHex, i.publicKeyHex));

/**
 * verifyDigestBatch gives the reference's answers, and the batch equation alone holds exactly when
 * all are valid. (verifyDigestBatch settles a failed equation with verifyDigest, so its answers
 * alone would not show an equation that wrongly fails for valid signatures.)
 */
function sameAsReference(items: readonly SignedDigest[]): boolean[] {
  const expected = reference(items);
  assert.deepEqual(verifyDigestBatch(items), expected);
  assert.equal(
    batchEquationHolds(items),
    expected.every((ok) => ok),
  );
  return expected;
}

/** The ways a forger or a broken peer can spoil a signed digest. */
const FORGERIES = [
  'wrong key',
  'flipped v',
  'negated R', // (r, n − s, 1 − v): the high-s twin, satisfies s·R = e·G + r·P, refused only as high s
  'high s, same v',
  'v = 2',
  'v = 27',
  'r = 0',
  's = 0',
  'r = n',
  's = n',
  'r + n',
  's + n',
  'r + 1',
  's + 1',
  'uppercase hex',
  'short signature',
  'long signature',
  '0x prefix',
  'key 04 prefix',
  'key off the curve',
  'key x >= p',
  'short key',
  'short digest',
  'corrupted digest',
  'signature of another digest',
] as const;
type Kind = 'valid' | (typeof FORGERIES)[number];
const KINDS: readonly Kind[] = ['valid', ...FORGERIES];

function signed(keyIndex: number, digest: Uint8Array, kind: Kind): SignedDigest {
  const key = KEYS[keyIndex % KEYS.length]!;
  const pub = PUBS[keyIndex % KEYS.length]!;
  const sig = signDigest(digest, key);
  const sigHex = bytesToHex(sig);
  const r = BigInt(`0x${bytesToHex(sig.subarray(0, 32))}`);
  const s = BigInt(`0x${bytesToHex(sig.subarray(32, 64))}`);
  const v = sig[64]!;
  const make = (rr: bigint, ss: bigint, vv: number) =>
    `${hex32(rr)}${hex32(ss)}${vv.toString(16).padStart(2, '0')}`;
  const item = (signatureHex: string, publicKeyHex = pub, d = digest): SignedDigest => ({
    digest: d,
    signatureHex,
    publicKeyHex,
  });
  switch (kind) {
    case 'valid':
      return item(sigHex);
    case 'wrong key':
      return item(sigHex, PUBS[(keyIndex + 1) % KEYS.length]!);
    case 'flipped v':
      return item(make(r, s, v ^ 1));
    case 'negated R':
      return item(make(r, N - s, v ^ 1));
    case 'high s, same v':
      return item(make(r, N - s, v));
    case 'v = 2':
      return item(make(r, s, 2));
    case 'v = 27':
      return item(make(r, s, 27));
    case 'r = 0':
      return item(make(0n, s, v));
    case 's = 0':
      return item(make(r, 0n, v));
    case 'r = n':
      return item(make(N, s, v));
    case 's = n':
      return item(make(r, N, v));
    case 'r + n': // fits 32 bytes for most r; otherwise not hex of the length, refused too
      return item(make(r + N, s, v));
    case 's + n':
      return item(make(r, s + N, v));
    case 'r + 1':
      return item(make(r + 1n, s, v));
    case 's + 1':
      return item(make(r, s + 1n, v));
    case 'uppercase hex':
      return item(sigHex.toUpperCase());
    case 'short signature':
      return item(sigHex.slice(2));
    case 'long signature':
      return item(`${sigHex}00`);
    case '0x prefix':
      return item(`0x${sigHex}`);
    case 'key 04 prefix':
      return item(sigHex, `04${pub.slice(2)}`);
    case 'key off the curve':
      return item(sigHex, `02${'00'.repeat(31)}05`); // x = 5: x³ + 7 is not a square
    case 'key x >= p':
      return item(sigHex, `02${'ff'.repeat(32)}`);
    case 'short key':
      return item(sigHex, pub.slice(0, 64));
    case 'short digest':
      return item(sigHex, pub, digest.subarray(1));
    case 'corrupted digest': {
      const d = Uint8Array.from(digest);
      d[31] = d[31]! ^ 0x40;
      return item(sigHex, pub, d);
    }
    case 'signature of another digest':
      return item(bytesToHex(signDigest(sha256(digest), key)));
  }
}

const arbitraryItem = fc
  .record({
    keyIndex: fc.nat({ max: KEYS.length - 1 }),
    digest: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    // About half valid, half forged (one of every kind equally).
    kind: fc.oneof(fc.constant<Kind>('valid'), fc.constantFrom<Kind>(...FORGERIES)),
  })
  .map(({ keyIndex, digest, kind }) => signed(keyIndex, digest, kind));

describe('verifyDigestBatch', () => {
  it('answers exactly as verifyDigest for batches mixing valid and forged signatures', () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(fc.array(arbitraryItem, { maxLength: 24 }), (items) => {
        for (const ok of sameAsReference(items)) ok ? valid++ : invalid++;
      }),
      { seed: 7, numRuns: 60 },
    );
    // The generator really produces both (a test of nothing but refusals would prove little).
    assert.ok(valid > 100 && invalid > 100, `${valid} valid, ${invalid} invalid`);
  });

  it('answers exactly as verifyDigest for every kind of forgery, alone and among valid ones', () => {
    const digest = sha256(utf8('every kind'));
    const valid = KEYS.map((_k, i) => signed(i, sha256(utf8(`valid ${i}`)), 'valid'));
    for (const kind of KINDS) {
      const forged = signed(3, digest, kind);
      const expected = kind === 'valid';
      assert.deepEqual(verifyDigestBatch([forged]), [expected], kind);
      assert.equal(verifyDigest(forged.digest, forged.signatureHex, forged.publicKeyHex), expected, kind);
      // At the front (coefficient 1), in the middle and at the end of a batch of valid ones.
      for (const at of [0, 5, valid.length]) {
        const items = [...valid.slice(0, at), forged, ...valid.slice(at)];
        const answers = verifyDigestBatch(items);
        assert.equal(batchEquationHolds(items), expected, `${kind} at ${at}: the equation alone`);
        assert.deepEqual(
          answers,
          items.map((_x, i) => i !== at || expected),
          `${kind} at ${at}`,
        );
      }
    }
  });

  for (const verifier of VERIFIERS) {
    it(`${verifier.name}: every kind of forgery is refused and valid ones pass, through every entry point`, () =>
      withVerifier(verifier, () => {
        const valid = KEYS.map((_k, i) => signed(i, sha256(utf8(`each verifier ${i}`)), 'valid'));
        const forged = KINDS.map((kind) => signed(5, sha256(utf8(`each verifier ${kind}`)), kind));
        const items = [...valid, ...forged];
        const expected = items.map((_x, i) => i < valid.length || KINDS[i - valid.length] === 'valid');
        assert.deepEqual(verifyDigestBatch(items), expected);
        for (const [i, { digest, signatureHex, publicKeyHex }] of items.entries()) {
          const at = i < valid.length ? `valid ${i}` : KINDS[i - valid.length];
          assert.equal(verifyDigest(digest, signatureHex, publicKeyHex), expected[i], `verifyDigest ${at}`);
          assert.equal(
            verifyDigestForKnownKey(digest, signatureHex, publicKeyHex),
            expected[i],
            `known key ${at}`,
          );
        }
      }));
  }

  it('gives an empty answer for an empty batch', () => {
    assert.deepEqual(verifyDigestBatch([]), []);
  });

  it('checks a batch of one exactly', () => {
    fc.assert(
      fc.property(arbitraryItem, (item) => {
        sameAsReference([item]);
      }),
      { seed: 11, numRuns: 80 },
    );
  });

  it('accepts a batch of 128 valid signatures, and the same batch in another order', () => {
    const items = Array.from({ length: 128 }, (_v, i) => signed(i, sha256(utf8(`tx ${i}`)), 'valid'));
    assert.deepEqual(verifyDigestBatch(items), new Array(128).fill(true));
    assert.deepEqual(verifyDigestBatch([...items].reverse()), new Array(128).fill(true));
    assert.equal(batchEquationHolds(items), true);
  });

  it('refuses every item of a batch where every item is invalid', () => {
    // Well-formed forgeries that reach the batch equation (R exists, the key is a point) and some
    // that are refused on their form; duplicates too.
    const kinds: Kind[] = ['wrong key', 'flipped v', 'corrupted digest', 'signature of another digest'];
    const items = Array.from({ length: 40 }, (_v, i) =>
      signed(i, sha256(utf8(`bad ${i}`)), kinds[i % kinds.length]!),
    );
    items.push(signed(1, sha256(utf8('bad')), 'negated R'), signed(2, sha256(utf8('bad')), 's = 0'));
    items.push(items[0]!, items[1]!);
    const expected = sameAsReference(items);
    assert.deepEqual(expected, new Array(items.length).fill(false));
  });

  it('refuses two forgeries whose errors cancel in an unweighted sum', () => {
    // A signs e_A but claims e_A + δ: its error is (δ/s_A)·G. B claims e_B − δ·s_B/s_A: error
    // −(δ/s_A)·G. With all coefficients 1 the batch equation would hold; the random ones catch it.
    for (let round = 0; round < 8; round++) {
      const dA = sha256(utf8(`cancel A ${round}`));
      const dB = sha256(utf8(`cancel B ${round}`));
      const sigA = signDigest(dA, KEYS[0]!);
      const sigB = signDigest(dB, KEYS[1]!);
      const sOf = (sig: Uint8Array) => BigInt(`0x${bytesToHex(sig.subarray(32, 64))}`);
      const eOf = (d: Uint8Array) => BigInt(`0x${bytesToHex(d)}`) % N;
      const inverse = (x: bigint) => {
        let [a, b, u, w] = [x % N, N, 1n, 0n];
        while (a !== 0n) [a, b, u, w] = [b % a, a, w - (b / a) * u, u];
        return ((w % N) + N) % N;
      };
      const delta = BigInt(round + 1);
      const claimedA = (eOf(dA) + delta) % N;
      const claimedB = (((eOf(dB) - ((delta * sOf(sigB)) % N) * inverse(sOf(sigA))) % N) + N) % N;
      const toDigest = (e: bigint) => Uint8Array.from(Buffer.from(hex32(e), 'hex'));
      const valid = signed(2, sha256(utf8(`cancel valid ${round}`)), 'valid');
      const items: SignedDigest[] = [
        { digest: toDigest(claimedA), signatureHex: bytesToHex(sigA), publicKeyHex: PUBS[0]! },
        { digest: toDigest(claimedB), signatureHex: bytesToHex(sigB), publicKeyHex: PUBS[1]! },
        valid,
      ];
      assert.deepEqual(sameAsReference(items), [false, false, true]);
      assert.deepEqual(sameAsReference([valid, items[1]!, items[0]!]), [true, false, false]);
    }
  });

  it('gives the same answers every time (deterministic) and whatever the order', () => {
    fc.assert(
      fc.property(fc.array(arbitraryItem, { minLength: 2, maxLength: 16 }), (items) => {
        const answers = verifyDigestBatch(items);
        assert.deepEqual(verifyDigestBatch(items), answers);
        assert.deepEqual(verifyDigestBatch([...items].reverse()), [...answers].reverse());
      }),
      { seed: 13, numRuns: 20 },
    );
  });

  it('stays right when more keys are used than it keeps decompressed', () => {
    const digest = sha256(utf8('many keys'));
    const keys = Array.from({ length: 1100 }, (_v, i) => privateKeyFromSeed(utf8('many'), `k${i}`));
    const items = keys.map((key) => ({
      digest,
      signatureHex: bytesToHex(signDigest(digest, key)),
      publicKeyHex: publicKeyHexOf(key),
    }));
    assert.ok(verifyDigestBatch(items).every((ok) => ok));
    assert.equal(batchEquationHolds(items), true);
    // The first keys were evicted: checked again, and against the wrong key.
    const again = items.slice(0, 20);
    const swapped = again.map((item, i) => ({
      ...item,
      publicKeyHex: again[(i + 1) % again.length]!.publicKeyHex,
    }));
    assert.deepEqual(verifyDigestBatch([...again, ...swapped]), [
      ...new Array(20).fill(true),
      ...new Array(20).fill(false),
    ]);
  });
});
