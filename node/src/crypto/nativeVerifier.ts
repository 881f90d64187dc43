/**
 * A verifier over libsecp256k1 (bitcoin-core/secp256k1) through the npm package `secp256k1`'s
 * binding, handed in by whoever loaded it (this folder loads nothing: node/src/mempool/
 * verifierChoice.ts does). Every check is a recovery and a byte comparison, as the protocol states
 * it: libsecp256k1's plain ecdsa_verify would answer another question (it accepts x(R) = r + n
 * and either parity of R, and refuses high s on its own), while ecdsa_recover with v in {0, 1}
 * names exactly R = (r, parity v). Measured here: about 15,000 recoveries a second on one core,
 * as fast as its verify, and many times the pure-JS batch (docs/BENCHMARKS.md).
 *
 * It signs too: libsecp256k1's default nonce is RFC 6979's (HMAC-SHA-256, no extra data) and its
 * signatures are low s, so they are noble's byte for byte (node/tests/unit/crypto/rfc6979.test.ts
 * and verifierAgreement.test.ts check it). A validator signs two or three times a block: in
 * noble, 1–4 ms each on this machine, and its table of G (about 1 MiB of heap, 70 ms to build)
 * for the first; here a few tens of microseconds and no table (docs/BENCHMARKS.md). Public keys
 * are derived here too, for the same table.
 */
import { PUBLIC_KEY_BYTES } from './keySizes.js';
import { type CheckedItem, type CheckedSignature, SIGNATURE_BYTES } from './signatureForm.js';
import { recoversTo, type Verifier } from './verifier.js';

/** The part of `secp256k1`'s API used here (its lib/index.js): throws when nothing recovers. */
export interface Secp256k1Binding {
  ecdsaRecover(signature: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
  /** RFC 6979 without extra data, low s; throws on a private key out of range. */
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  /** The compressed public key; throws on a private key out of range. */
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

export function nativeVerifier(binding: Secp256k1Binding): Verifier {
  const recover = ({ digest, signature, v }: CheckedSignature): Uint8Array | null => {
    try {
      const key = binding.ecdsaRecover(signature.subarray(0, 64), v, digest, true);
      return key.length === PUBLIC_KEY_BYTES ? key : null;
    } catch {
      return null; // no point with x = r, or Q at infinity
    }
  };
  const verifyKnownKey = (item: CheckedItem) => recoversTo(recover, item);
  const sign = (digest: Uint8Array, privateKey: Uint8Array): Uint8Array => {
    const { signature, recid } = binding.ecdsaSign(digest, privateKey);
    const out = new Uint8Array(SIGNATURE_BYTES);
    out.set(signature, 0);
    out[64] = recid;
    return out;
  };
  return {
    name: 'native',
    recover,
    verifyKnownKey,
    verifyBatch: (items) => items.map(verifyKnownKey),
    sign,
    publicKeyOf: (privateKey) => binding.publicKeyCreate(privateKey, true),
  };
}
