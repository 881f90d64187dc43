/**
 * secp256k1 keys. Private keys are 32 bytes; public keys travel compressed (33 bytes, hex).
 * Key generation takes its entropy as an argument: randomness lives at the edges.
 */
import * as secp from '@noble/secp256k1';
import { currentVerifier } from './activeVerifier.js';
import { sha256 } from './hash.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { PRIVATE_KEY_BYTES, PUBLIC_KEY_BYTES } from './keySizes.js';
import './nobleSetup.js';

export { PRIVATE_KEY_BYTES, PUBLIC_KEY_BYTES } from './keySizes.js';

export function isValidPrivateKey(key: Uint8Array): boolean {
  return key.length === PRIVATE_KEY_BYTES && secp.utils.isValidSecretKey(key);
}

/**
 * By the verifier in use where it derives keys (the native one: the same point), else by noble,
 * whose first derivation builds its table of G (about 1 MiB, 70 ms). A key out of range is
 * refused by noble's own error either way.
 */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  const derive = currentVerifier().publicKeyOf;
  if (derive !== undefined && privateKey.length === PRIVATE_KEY_BYTES) {
    try {
      return derive(privateKey);
    } catch {
      // out of range: noble says so below
    }
  }
  return secp.getPublicKey(privateKey, true);
}

export function publicKeyHexOf(privateKey: Uint8Array): string {
  return bytesToHex(publicKeyOf(privateKey));
}

/** True when `hex` is a compressed secp256k1 point that lies on the curve. */
export function isValidPublicKeyHex(hex: string): boolean {
  try {
    secp.Point.fromBytes(hexToBytes(hex, PUBLIC_KEY_BYTES));
    return true;
  } catch {
    return false;
  }
}

/**
 * Deterministic key from a seed and a label (devnet keys are reproducible from `--seed`).
 * key = SHA-256(seed || 0x00 || label || counter) for the first counter giving a valid key.
 */
export function privateKeyFromSeed(seed: Uint8Array, label: string): Uint8Array {
  const labelBytes = new TextEncoder().encode(label);
  for (let counter = 0; counter < 256; counter++) {
    const input = new Uint8Array(seed.length + 1 + labelBytes.length + 1);
    input.set(seed, 0);
    input[seed.length] = 0;
    input.set(labelBytes, seed.length + 1);
    input[input.length - 1] = counter;
    const candidate = sha256(input);
    if (isValidPrivateKey(candidate)) return candidate;
  }
  throw new Error('no valid key from seed (probability 2^-2048)');
}
