/**
 * What a worker signs (docs/MARKET.md, "Claims and failure reports"): the claim of a task, and
 * the report that it failed. The same signature scheme as transactions (secp256k1, RFC 6979,
 * low s, 65 bytes r‖s‖v over a 32-byte digest, the key recovered and compared), over bytes that
 * bind the chain, the task and the worker, each statement under its own domain string so that
 * neither can stand in for the other or for a transaction:
 *
 *   claim_bytes   = str("chain-market-claim/v1") str(chain_id) str(task_id) str(worker_address)
 *   failure_bytes = str("chain-market-failure/v1") str(chain_id) str(task_id) str(worker_address)
 *   signature     = sign(H(bytes)) with the worker's key
 *
 * A signature is accepted when the key it recovers is `pub_key` and `worker_address` is the
 * address of `pub_key`: nobody can claim, or fail, a task for another worker.
 */
import { Writer } from '../chain/index.js';
import { accountAddressOf } from '../crypto/address.js';
import { sha256 } from '../crypto/hash.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import { signDigestHex, verifyDigest } from '../crypto/signature.js';

export const CLAIM_DOMAIN = 'chain-market-claim/v1';
export const FAILURE_DOMAIN = 'chain-market-failure/v1';
export type Statement = 'claim' | 'failure';

export interface WorkerSignature {
  readonly worker_address: string;
  readonly pub_key: string;
  readonly signature: string;
}

export function statementBytes(
  kind: Statement,
  chainId: string,
  taskId: string,
  workerAddress: string,
): Uint8Array {
  return new Writer()
    .str(kind === 'claim' ? CLAIM_DOMAIN : FAILURE_DOMAIN)
    .str(chainId)
    .str(taskId)
    .str(workerAddress)
    .finish();
}

/** A worker's signed statement about a task, ready to send. */
export function signStatement(
  kind: Statement,
  chainId: string,
  taskId: string,
  privateKey: Uint8Array,
): WorkerSignature {
  const pub = publicKeyHexOf(privateKey);
  const worker = accountAddressOf(pub);
  return {
    worker_address: worker,
    pub_key: pub,
    signature: signDigestHex(sha256(statementBytes(kind, chainId, taskId, worker)), privateKey),
  };
}

/** Null when the statement is the worker's own; else which field is wrong and why. */
export function statementProblem(
  kind: Statement,
  chainId: string,
  taskId: string,
  s: WorkerSignature,
): { field: 'pub_key' | 'signature'; detail: string } | null {
  if (accountAddressOf(s.pub_key) !== s.worker_address)
    return { field: 'pub_key', detail: 'pub_key is not the key of worker_address' };
  const digest = sha256(statementBytes(kind, chainId, taskId, s.worker_address));
  if (!verifyDigest(digest, s.signature, s.pub_key))
    return {
      field: 'signature',
      detail: `signature is not worker_address's signature of this ${kind} (docs/MARKET.md)`,
    };
  return null;
}
