/**
 * Which signature verifier the node uses (node/src/crypto/verifier.ts), chosen once per process:
 * `CHAIN_NODE_VERIFIER=noble|native|auto` (default auto). auto and native take libsecp256k1
 * through the optional dependency `secp256k1` when it loads and passes a known-answer check, and
 * fall back to the pure-JS verifier (@noble/secp256k1) otherwise; noble never loads it. Lives
 * outside node/src/crypto because that folder is pure: no require, no environment, no logging.
 */
import { createRequire } from 'node:module';
import { createLogger } from '@chain-devnet/kit/log';
import { useVerifier } from '../crypto/activeVerifier.js';
import { bytesEqual, hexToBytes } from '../crypto/hex.js';
import { nativeVerifier, type Secp256k1Binding } from '../crypto/nativeVerifier.js';
import { nobleVerifier } from '../crypto/nobleVerifier.js';
import { checkSignature } from '../crypto/signatureForm.js';
import type { Verifier } from '../crypto/verifier.js';

export const VERIFIER_ENV = 'CHAIN_NODE_VERIFIER';
const REQUESTS = ['auto', 'noble', 'native'] as const;
export type VerifierRequest = (typeof REQUESTS)[number];

export interface VerifierChoice {
  readonly requested: VerifierRequest;
  readonly verifier: Verifier;
  /** Why the native verifier is not used, when it was asked for (auto or native). */
  readonly fallback?: string;
}

/*
 * The known answer: the first worked example of docs/PROTOCOL.md ("Signing, step by step"),
 * private key 1, so the key is G compressed. A binding that loads but answers wrong is not used.
 */
const PROBE_DIGEST = hexToBytes('44e704d472205d14fa94fa4665631bc80ff4b7f483e88bb23896581154097c27');
const PROBE_SIGNATURE = hexToBytes(
  '0116e9c91952df73b3998489116ddeef1a41f3a3eb8c2088601789840102ad8321a5a46ce444c1b63c147bdcf3c67b0542ab693fb2b90a5c934942bf181a488b00',
);
const PROBE_KEY = hexToBytes('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');

/**
 * The native verifier, or why there is none. Loads `secp256k1/bindings.js` rather than the
 * package's main file, which silently falls back to the `elliptic` JS library when the addon
 * does not load (then neither fast nor the code the tests cover).
 */
export function loadNativeVerifier(): Verifier | string {
  let binding: Secp256k1Binding;
  try {
    binding = createRequire(import.meta.url)('secp256k1/bindings.js') as Secp256k1Binding;
  } catch (e) {
    return `secp256k1 native binding did not load: ${(e as Error).message.split('\n')[0]}`;
  }
  const verifier = nativeVerifier(binding);
  const probe = checkSignature(PROBE_DIGEST, PROBE_SIGNATURE);
  const key = probe === null ? null : verifier.recover(probe);
  if (key === null || !bytesEqual(key, PROBE_KEY))
    return 'secp256k1 native binding failed its known-answer check';
  return verifier;
}

/** The request in `value` (the environment variable), or an error naming the accepted values. */
export function parseVerifierRequest(value: string | undefined): VerifierRequest {
  const v = value === undefined || value === '' ? 'auto' : value;
  if (!(REQUESTS as readonly string[]).includes(v))
    throw new Error(`${VERIFIER_ENV} expected one of ${REQUESTS.join(', ')}, got ${JSON.stringify(value)}`);
  return v as VerifierRequest;
}

export function chooseVerifier(requested: VerifierRequest, load = loadNativeVerifier): VerifierChoice {
  if (requested === 'noble') return { requested, verifier: nobleVerifier };
  const native = load();
  return typeof native === 'string'
    ? { requested, verifier: nobleVerifier, fallback: native }
    : { requested, verifier: native };
}

let chosen: VerifierChoice | null = null;

/**
 * Chooses from the environment and installs the verifier, once per process; logs the choice
 * (a warning when native was asked for and is missing). Later calls return the first choice.
 */
export function installVerifierFromEnvironment(log = createLogger()): VerifierChoice {
  if (chosen !== null) return chosen;
  chosen = chooseVerifier(parseVerifierRequest(process.env[VERIFIER_ENV]));
  useVerifier(chosen.verifier);
  const fields = { verifier: chosen.verifier.name, requested: chosen.requested, env: VERIFIER_ENV };
  if (chosen.fallback !== undefined && chosen.requested === 'native')
    log.warn('signature verifier: native asked for, using noble', { ...fields, reason: chosen.fallback });
  else log.info('signature verifier', chosen.fallback ? { ...fields, reason: chosen.fallback } : fields);
  return chosen;
}
