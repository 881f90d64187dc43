/**
 * The pure-JS verifier (@noble/secp256k1): always present, the default, and the fallback when the
 * native one is missing or fails its check at load.
 */
import { nobleVerifyKnownKey } from './knownKeyTables.js';
import { nobleVerifyBatch } from './nobleBatch.js';
import { nobleRecover } from './nobleRecover.js';
import type { Verifier } from './verifier.js';

export const nobleVerifier: Verifier = {
  name: 'noble',
  recover: nobleRecover,
  verifyKnownKey: nobleVerifyKnownKey,
  verifyBatch: nobleVerifyBatch,
};
