/**
 * The verifier in use (verifier.ts). The pure-JS one (@noble/secp256k1) is the default; a program
 * may install another, e.g. the libsecp256k1 binding. This folder is pure
 * (node/tests/purity.test.ts), so loading a native addon, reading the environment and logging
 * the choice happen outside it (node/src/mempool/verifierChoice.ts).
 */
import { nobleVerifier } from './nobleVerifier.js';
import type { Verifier } from './verifier.js';

let current: Verifier = nobleVerifier;

/** Checks from now on go to `verifier`; returns the one it replaces. */
export function useVerifier(verifier: Verifier): Verifier {
  const previous = current;
  current = verifier;
  return previous;
}

export function currentVerifier(): Verifier {
  return current;
}
