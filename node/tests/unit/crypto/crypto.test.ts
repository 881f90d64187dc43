import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ACCOUNT_PREFIX,
  accountAddressOf,
  convertAddress,
  decodeAddress,
  isAddress,
  VALIDATOR_PREFIX,
} from '../../../src/crypto/address.js';
import { sha256 } from '../../../src/crypto/hash.js';
import { bytesToHex, hexToBytes, isHex } from '../../../src/crypto/hex.js';
import { isValidPublicKeyHex, privateKeyFromSeed, publicKeyHexOf } from '../../../src/crypto/keys.js';
import {
  recoverPublicKey,
  signDigest,
  verifyDigest,
  verifyDigestForKnownKey,
} from '../../../src/crypto/signature.js';

const KEY1 = hexToBytes(`${'00'.repeat(31)}01`);

describe('hex', () => {
  it('accepts only lowercase, even-length hex of the asked length', () => {
    assert.equal(isHex('00ff'), true);
    assert.equal(isHex('00FF'), false);
    assert.equal(isHex('0x00'), false);
    assert.equal(isHex('abc'), false);
    assert.equal(isHex('abcd', 2), true);
    assert.equal(isHex('abcd', 3), false);
    assert.throws(() => hexToBytes('zz'), /expected lowercase hex/);
    assert.equal(bytesToHex(hexToBytes('00a1ff')), '00a1ff');
  });

  it('decodes every byte value as OpenSSL does, and round-trips', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const hex = Buffer.from(all).toString('hex');
    assert.deepEqual(hexToBytes(hex), all);
    assert.equal(bytesToHex(hexToBytes(hex)), hex);
    assert.deepEqual(hexToBytes(''), new Uint8Array(0));
    for (const bad of ['0g', 'g0', '0/', ':0', '0`', 'a', '0A'])
      assert.throws(() => hexToBytes(bad), /expected lowercase hex/, bad);
  });
});

describe('sha256', () => {
  it('matches OpenSSL', () => {
    for (const input of ['', 'abc', 'x'.repeat(1000)]) {
      const expected = createHash('sha256').update(input).digest('hex');
      assert.equal(bytesToHex(sha256(new TextEncoder().encode(input))), expected);
    }
  });
});

describe('addresses', () => {
  it('are bech32 of the first 20 bytes of SHA-256(compressed key)', () => {
    const pub = publicKeyHexOf(KEY1);
    assert.equal(pub, '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
    const account = accountAddressOf(pub);
    assert.match(account, /^coin1[02-9ac-hj-np-z]{38}$/);
    const bytes = decodeAddress(account, ACCOUNT_PREFIX)!;
    assert.equal(
      bytesToHex(bytes),
      createHash('sha256').update(Buffer.from(pub, 'hex')).digest('hex').slice(0, 40),
    );
  });

  it('refuse the wrong prefix, upper case, a bad checksum and the wrong length', () => {
    const account = accountAddressOf(publicKeyHexOf(KEY1));
    assert.equal(isAddress(account, ACCOUNT_PREFIX), true);
    assert.equal(isAddress(account, VALIDATOR_PREFIX), false);
    assert.equal(isAddress(account.toUpperCase(), ACCOUNT_PREFIX), false);
    const flipped = account.slice(0, -1) + (account.endsWith('q') ? 'p' : 'q');
    assert.equal(isAddress(flipped, ACCOUNT_PREFIX), false);
    assert.equal(isAddress('coin1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9gzxqr', ACCOUNT_PREFIX), false);
    assert.equal(isAddress('', ACCOUNT_PREFIX), false);
  });

  it('convert between coin1 and coinvalcons1 over the same bytes', () => {
    const account = accountAddressOf(publicKeyHexOf(KEY1));
    const validator = convertAddress(account, ACCOUNT_PREFIX, VALIDATOR_PREFIX)!;
    assert.ok(validator.startsWith('coinvalcons1'));
    assert.equal(convertAddress(validator, VALIDATOR_PREFIX, ACCOUNT_PREFIX), account);
  });
});

describe('keys', () => {
  it('derive the same key from the same seed and label, and different ones otherwise', () => {
    const seed = new TextEncoder().encode('seed');
    assert.deepEqual(privateKeyFromSeed(seed, 'a'), privateKeyFromSeed(seed, 'a'));
    assert.notDeepEqual(privateKeyFromSeed(seed, 'a'), privateKeyFromSeed(seed, 'b'));
  });

  it('validates compressed public keys on the curve', () => {
    assert.equal(isValidPublicKeyHex(publicKeyHexOf(KEY1)), true);
    assert.equal(isValidPublicKeyHex(`02${'00'.repeat(32)}`), false);
    assert.equal(isValidPublicKeyHex(`04${'11'.repeat(32)}`), false);
    assert.equal(isValidPublicKeyHex('02'), false);
  });
});

describe('signatures', () => {
  const digest = sha256(new TextEncoder().encode('message'));
  const sig = signDigest(digest, KEY1);

  it('are 65 bytes r || s || v and recover the signer', () => {
    assert.equal(sig.length, 65);
    assert.ok(sig[64] === 0 || sig[64] === 1);
    assert.equal(bytesToHex(recoverPublicKey(digest, sig)!), publicKeyHexOf(KEY1));
    assert.equal(verifyDigest(digest, bytesToHex(sig), publicKeyHexOf(KEY1)), true);
  });

  it('fail for another digest, another key, a flipped recovery byte or a high-s twin', () => {
    const other = sha256(new TextEncoder().encode('other'));
    assert.equal(verifyDigest(other, bytesToHex(sig), publicKeyHexOf(KEY1)), false);
    const key2 = publicKeyHexOf(hexToBytes(`${'00'.repeat(31)}02`));
    assert.equal(verifyDigest(digest, bytesToHex(sig), key2), false);
    const flippedV = Uint8Array.from(sig);
    flippedV[64] = sig[64]! ^ 1;
    assert.equal(verifyDigest(digest, bytesToHex(flippedV), publicKeyHexOf(KEY1)), false);
    const badV = Uint8Array.from(sig);
    badV[64] = 27;
    assert.equal(recoverPublicKey(digest, badV), null);
    // s' = n - s is the malleable twin of the same signature: refused.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${bytesToHex(sig.subarray(32, 64))}`);
    const twin = Uint8Array.from(sig);
    twin.set(hexToBytes((n - s).toString(16).padStart(64, '0')), 32);
    twin[64] = sig[64]! ^ 1;
    assert.equal(recoverPublicKey(digest, twin), null);
  });
});

describe('verifyDigestForKnownKey', () => {
  const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const hex32 = (n: bigint) => n.toString(16).padStart(64, '0');
  const both = (digest: Uint8Array, sig: string, pub: string) => {
    const expected = verifyDigest(digest, sig, pub);
    assert.equal(verifyDigestForKnownKey(digest, sig, pub), expected, `sig ${sig} key ${pub}`);
    return expected;
  };
  /** The signature and the variants a forger or a broken peer could send. */
  const variants = (sig: Uint8Array): string[] => {
    const r = BigInt(`0x${bytesToHex(sig.subarray(0, 32))}`);
    const s = BigInt(`0x${bytesToHex(sig.subarray(32, 64))}`);
    const v = sig[64]!;
    const make = (rr: bigint, ss: bigint, vv: number) =>
      `${hex32(rr)}${hex32(ss)}${vv.toString(16).padStart(2, '0')}`;
    return [
      make(r, s, v),
      make(r, s, v ^ 1),
      make(r, N - s, v ^ 1), // the high-s twin
      make(r, N - s, v),
      make(r, s, v + 2),
      make(0n, s, v),
      make(r, 0n, v),
      make(r + N, s, v), // r out of range (may not fit 32 bytes: then not hex of the length)
      make(r, s + N, v),
      make((r + 1n) % N, s, v),
      make(r, (s + 1n) % N, v),
    ].filter((x) => x.length === 130);
  };

  it('gives the answer of verifyDigest for valid signatures and their forged variants', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.string({ maxLength: 8 }),
        (digest, label, otherLabel) => {
          const key = privateKeyFromSeed(new TextEncoder().encode('known-key'), label);
          const pub = publicKeyHexOf(key);
          const other = publicKeyHexOf(privateKeyFromSeed(new TextEncoder().encode('other'), otherLabel));
          const sig = signDigest(digest, key);
          assert.equal(both(digest, bytesToHex(sig), pub), true);
          for (const variant of variants(sig)) {
            both(digest, variant, pub);
            both(digest, variant, other);
          }
          const otherDigest = Uint8Array.from(digest);
          otherDigest[0] = otherDigest[0]! ^ 1;
          assert.equal(both(otherDigest, bytesToHex(sig), pub), false);
        },
      ),
      { seed: 42, numRuns: 60 },
    );
  });

  it('refuses random bytes, malformed hex and keys off the curve, like verifyDigest', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 65, maxLength: 65 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (sig, digest) => {
          both(digest, bytesToHex(sig), publicKeyHexOf(KEY1));
        },
      ),
      { seed: 42, numRuns: 100 },
    );
    const digest = sha256(new TextEncoder().encode('message'));
    const sig = bytesToHex(signDigest(digest, KEY1));
    const pub = publicKeyHexOf(KEY1);
    assert.equal(both(digest, sig.toUpperCase(), pub), false);
    assert.equal(both(digest, sig.slice(2), pub), false);
    assert.equal(both(digest, sig, `04${pub.slice(2)}`), false);
    assert.equal(both(digest, sig, `02${'ff'.repeat(32)}`), false); // x >= p: not a point
    assert.equal(both(digest, sig, `02${'00'.repeat(31)}05`), false); // x = 5: no point on the curve
    assert.equal(verifyDigestForKnownKey(digest.subarray(1), sig, pub), false);
  });

  it('gives the same answers before and after a key table is widened (8-bit windows after 64 checks)', () => {
    const key = privateKeyFromSeed(new TextEncoder().encode('widened'), 'validator');
    const pub = publicKeyHexOf(key);
    for (let i = 0; i < 150; i++) {
      const digest = sha256(new TextEncoder().encode(`vote ${i}`));
      const sig = signDigest(digest, key);
      assert.equal(both(digest, bytesToHex(sig), pub), true, `signature ${i}`);
      // A forged variant every few checks, on both sides of the widening.
      if (i % 7 === 0) for (const variant of variants(sig)) both(digest, variant, pub);
    }
  });

  it('stays right when more keys are used than it keeps tables for', () => {
    const digest = sha256(new TextEncoder().encode('many keys'));
    const keys = Array.from({ length: 300 }, (_v, i) => privateKeyFromSeed(KEY1, `k${i}`));
    for (const round of [0, 1]) {
      for (const [i, key] of keys.entries()) {
        if (round === 1 && i % 10 !== 0) continue;
        const sig = bytesToHex(signDigest(digest, key));
        assert.equal(verifyDigestForKnownKey(digest, sig, publicKeyHexOf(key)), true);
        assert.equal(
          verifyDigestForKnownKey(digest, sig, publicKeyHexOf(keys[(i + 1) % keys.length]!)),
          false,
        );
      }
    }
  });
});
