import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicKeyOf, sha256, signDigest } from '../../../src/crypto/index.js';
import { nobleVerifier } from '../../../src/crypto/nobleVerifier.js';
import { checkItem, checkSignature } from '../../../src/crypto/signatureForm.js';
import type { Verifier } from '../../../src/crypto/verifier.js';
import { sharedVerifier } from '../../../src/sim/sharedVerifier.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function counting(inner: Verifier): { verifier: Verifier; recoveries: () => number } {
  let n = 0;
  return {
    verifier: {
      ...inner,
      recover: (s) => {
        n++;
        return inner.recover(s);
      },
    },
    recoveries: () => n,
  };
}

describe('sharedVerifier', () => {
  const key = new Uint8Array(32).fill(7);
  const other = new Uint8Array(32).fill(9);
  const digest = sha256(new TextEncoder().encode('a vote'));
  const signature = signDigest(digest, key);

  it("answers as the verifier it wraps, for the signer's key, another key and a changed digest", () => {
    const shared = sharedVerifier(nobleVerifier);
    for (const [d, k] of [
      [digest, key],
      [digest, other],
      [sha256(new TextEncoder().encode('another vote')), key],
    ] as const) {
      const item = checkItem({ digest: d, signatureHex: hex(signature), publicKeyHex: hex(publicKeyOf(k)) })!;
      assert.equal(shared.verifyKnownKey(item), nobleVerifier.verifyKnownKey(item));
      assert.deepEqual(shared.verifyBatch([item]), nobleVerifier.verifyBatch([item]));
    }
    const s = checkSignature(digest, signature)!;
    assert.deepEqual(shared.recover(s), publicKeyOf(key));
  });

  it('recovers each signature once however many nodes check it', () => {
    const inner = counting(nobleVerifier);
    const shared = sharedVerifier(inner.verifier);
    const item = checkItem({ digest, signatureHex: hex(signature), publicKeyHex: hex(publicKeyOf(key)) })!;
    for (let node = 0; node < 50; node++) assert.equal(shared.verifyKnownKey(item), true);
    const wrong = checkItem({ digest, signatureHex: hex(signature), publicKeyHex: hex(publicKeyOf(other)) })!;
    assert.equal(shared.verifyKnownKey(wrong), false); // the same recovery, another key: refused
    assert.equal(inner.recoveries(), 1);
  });
});
