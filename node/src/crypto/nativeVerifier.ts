/**
 * A verifier over libsecp256k1 (bitcoin-core/secp256k1) through the npm package `secp256k1`'s
 * binding, handed in by whoever loaded it (this folder loads nothing: node/src/mempool/
 * verifierChoice.ts does). Every check is a recovery and a byte comparison, as the protocol states
 * it: libsecp256k1's plain ecdsa_verify would answer another question (it accepts x(R) = r + n
 * and either parity of R, and refuses high s on its own), while ecdsa_recover with v in {0, 1}
 * names exactly R = (r, parity v). Measured here: about 15,000 recoveries a second on one core,
 * as fast as its verify, and many times the pure-JS batch (docs/BENCHMARKS.md).
 */
import { PUBLIC_KEY_BYTES } from './keys.js';
import type { CheckedItem, CheckedSignature } from './signatureForm.js';
import { recoversTo, type Verifier } from './verifier.js';

/** The part of `secp256k1`'s API used here (its lib/index.js): throws when nothing recovers. */
export interface Secp256k1Binding {
  ecdsaRecover(signature: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
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
  return {
    name: 'native',
    recover,
    verifyKnownKey,
    verifyBatch: (items) => items.map(verifyKnownKey),
  };
}
