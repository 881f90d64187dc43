/**
 * The verifiers the crypto tests run against, each explicitly (not only the default): the
 * pure-JS one always, the native one (libsecp256k1, the optional dependency `secp256k1`) where
 * its prebuilt binary exists. On linux-x64 (CI) a native verifier that does not load is a
 * failure, not a skip: otherwise CI would test one path and report two.
 */
import assert from 'node:assert/strict';
import { useVerifier } from '../../../src/crypto/activeVerifier.js';
import { nobleVerifier } from '../../../src/crypto/nobleVerifier.js';
import type { Verifier } from '../../../src/crypto/verifier.js';
import { loadNativeVerifier } from '../../../src/mempool/verifierChoice.js';

const native = loadNativeVerifier();
const nativeRequired = process.platform === 'linux' && process.arch === 'x64';
if (typeof native === 'string')
  assert.ok(!nativeRequired, `the native verifier must load on linux-x64 (CI): ${native}`);

export const NATIVE: Verifier | null = typeof native === 'string' ? null : native;
export const VERIFIERS: readonly Verifier[] = NATIVE === null ? [nobleVerifier] : [nobleVerifier, NATIVE];

/** Runs `body` with `verifier` in use, then puts the previous one back. */
export function withVerifier<T>(verifier: Verifier, body: () => T): T {
  const previous = useVerifier(verifier);
  try {
    return body();
  } finally {
    useVerifier(previous);
  }
}
