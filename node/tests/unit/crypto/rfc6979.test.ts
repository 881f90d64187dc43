/**
 * docs/PROTOCOL.md's "Signing, step by step" and its worked examples, checked against the code:
 * the steps are carried out here as written (HMAC-DRBG from @noble/hashes' HMAC, points from
 * @noble/secp256k1's arithmetic), and must give the documented k, R, s, low-s flip and the very
 * signature the node's signDigest makes, with each verifier in use (the native one signs too).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import * as secp from '@noble/secp256k1';
import { bytesToHex, hexToBytes } from '../../../src/crypto/hex.js';
import { publicKeyHexOf } from '../../../src/crypto/keys.js';
import { recoverPublicKey, signDigest } from '../../../src/crypto/signature.js';
import { VERIFIERS, withVerifier } from './verifiers.js';

interface Example {
  private_key: string;
  digest: string;
  k: string;
  r_y_parity: number;
  s_before_low_s: string;
  low_s_flip: boolean;
  signature: string;
}

function loadExamples(): Example[] {
  const doc = readFileSync(new URL('../../../../../docs/PROTOCOL.md', import.meta.url), 'utf8');
  const match = /```json rfc6979\n([\s\S]*?)\n```/.exec(doc);
  assert.ok(match, 'docs/PROTOCOL.md has a ```json rfc6979 block');
  return JSON.parse(match[1]!) as Example[];
}

const N = secp.Point.CURVE().n;
const int = (b: Uint8Array) => BigInt(`0x${bytesToHex(b) || '0'}`);
const bytes32 = (x: bigint) => hexToBytes(x.toString(16).padStart(64, '0'));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const modInverse = (a: bigint, m: bigint) => secp.etc.invert(a, m);

/** Steps 1 to 7 of the document, as written. */
function signAsDocumented(privateKey: Uint8Array, digest: Uint8Array) {
  const d = int(privateKey);
  const x = bytes32(d);
  const h = int(digest) % N;
  const h1Octets = bytes32(h);
  let V = new Uint8Array(32).fill(1);
  let K = new Uint8Array(32).fill(0);
  const H = (...m: Uint8Array[]) => hmac(sha256, K, concat(...m));
  K = H(V, Uint8Array.of(0), x, h1Octets);
  V = H(V);
  K = H(V, Uint8Array.of(1), x, h1Octets);
  V = H(V);
  for (;;) {
    V = H(V);
    const k = int(V);
    if (k >= 1n && k < N) {
      const R = secp.Point.BASE.multiply(k).toAffine();
      const r = R.x % N;
      const s = (modInverse(k, N) * (h + r * d)) % N;
      if (r !== 0n && s !== 0n) {
        const parity = Number(R.y & 1n);
        const flip = s > N >> 1n;
        const finalS = flip ? N - s : s;
        const v = flip ? parity ^ 1 : parity;
        return {
          k,
          parity,
          sBefore: s,
          flip,
          signature: bytesToHex(concat(bytes32(r), bytes32(finalS), Uint8Array.of(v))),
        };
      }
    }
    K = H(V, Uint8Array.of(0));
    V = H(V);
  }
}

describe('RFC 6979 signing as docs/PROTOCOL.md writes it', () => {
  const examples = loadExamples();

  it('has a worked example with and one without the low-s flip', () => {
    assert.deepEqual(examples.map((e) => e.low_s_flip).sort(), [false, true]);
  });

  for (const [i, e] of examples.entries()) {
    it(`example ${i}: the documented k, R.y parity, s and flip, and the node's own signature`, () => {
      const key = hexToBytes(e.private_key);
      const digest = hexToBytes(e.digest);
      const steps = signAsDocumented(key, digest);
      assert.equal(steps.k.toString(16).padStart(64, '0'), e.k);
      assert.equal(steps.parity, e.r_y_parity);
      assert.equal(steps.sBefore.toString(16).padStart(64, '0'), e.s_before_low_s);
      assert.equal(steps.flip, e.low_s_flip);
      assert.equal(steps.signature, e.signature);
      for (const v of VERIFIERS)
        assert.equal(
          bytesToHex(withVerifier(v, () => signDigest(digest, key))),
          e.signature,
          `the node signs exactly so (${v.name})`,
        );
      const recovered = recoverPublicKey(digest, hexToBytes(e.signature));
      assert.equal(recovered && bytesToHex(recovered), publicKeyHexOf(key));
    });
  }

  it('the steps give the node’s signature for any key and digest', () => {
    for (let i = 1; i <= 40; i++) {
      const key = sha256(Uint8Array.of(i, 1));
      const digest = sha256(Uint8Array.of(i, 2));
      const expected = signAsDocumented(key, digest).signature;
      for (const v of VERIFIERS)
        assert.equal(bytesToHex(withVerifier(v, () => signDigest(digest, key))), expected, v.name);
    }
  });

  it('a verifier refuses the high-s twin of a valid signature', () => {
    const e = examples.find((x) => x.low_s_flip)!;
    const sig = hexToBytes(e.signature);
    const s = int(sig.subarray(32, 64));
    const twin = concat(sig.subarray(0, 32), bytes32(N - s), Uint8Array.of(sig[64]! ^ 1));
    assert.equal(recoverPublicKey(hexToBytes(e.digest), twin), null);
  });
});
