/**
 * ajv schemas for request bodies: the first gate, on shape and types. The chain's own parser
 * (txFromJson) then checks what a schema cannot (Bech32 checksums, points on the curve).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { MAX_TXS_PER_BATCH, TX_TYPES } from '../chain/index.js';
import { MAX_PROBE_BYTES } from '../p2p/protocol.js';

const hex = (bytes: number) => ({ type: 'string', pattern: `^[0-9a-f]{${bytes * 2}}$` });
const decimal = { type: 'string', pattern: '^(0|[1-9][0-9]{0,77})$' };
const uint = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };

export const txBodySchema = {
  type: 'object',
  required: ['tx_type', 'from_address', 'amount', 'fee', 'nonce', 'timestamp', 'pub_key', 'signature'],
  additionalProperties: false,
  properties: {
    tx_type: { enum: [...TX_TYPES] },
    from_address: { type: 'string', maxLength: 90 },
    to_address: { type: ['string', 'null'], maxLength: 90 },
    amount: decimal,
    fee: decimal,
    nonce: uint,
    gas_price: uint,
    gas_limit: uint,
    timestamp: uint,
    pub_key: hex(33),
    signature: hex(65),
    payload: {
      type: 'object',
      maxProperties: 8,
      additionalProperties: { type: ['string', 'number'], maxLength: 256 },
    },
    chain_id: { type: 'string', maxLength: 64 },
  },
} as const;

// Compiled at the first request, not at start: ajv and the compile took about 50 ms of the
// start of a node, and a devnet starts all its nodes at once.
let validateTxBody: ValidateFunction | null = null;

/** Null if `body` has the shape of a transaction; otherwise what is wrong, naming the field. */
export function txBodyProblem(body: unknown): string | null {
  validateTxBody ??= new Ajv({ allErrors: false, strict: true, allowUnionTypes: true }).compile(txBodySchema);
  if (validateTxBody(body)) return null;
  const e = validateTxBody.errors?.[0];
  if (!e) return 'invalid body';
  const where = e.instancePath === '' ? 'body' : e.instancePath.slice(1).replaceAll('/', '.');
  return `${where} ${e.message ?? 'is invalid'}`;
}

export const netProbeSchema = {
  type: 'object',
  required: ['peer'],
  additionalProperties: false,
  properties: {
    peer: { type: 'string', minLength: 1, maxLength: 128 },
    bytes: { type: 'integer', minimum: 0, maximum: MAX_PROBE_BYTES },
  },
} as const;
let validateNetProbe: ValidateFunction | null = null;

/** Null if `body` is a probe request (POST /net/probe); otherwise what is wrong, naming the field. */
export function netProbeProblem(body: unknown): string | null {
  validateNetProbe ??= new Ajv({ allErrors: false, strict: true }).compile(netProbeSchema);
  if (validateNetProbe(body)) return null;
  const e = validateNetProbe.errors?.[0];
  if (!e) return 'invalid body';
  if (e.keyword === 'additionalProperties')
    return `${String(e.params.additionalProperty)} is not a field (peer, bytes)`;
  const where = e.instancePath === '' ? 'body' : e.instancePath.slice(1).replaceAll('/', '.');
  return `${where} ${e.message ?? 'is invalid'}`;
}

/**
 * Null if `body` is a batch of 1 … MAX_TXS_PER_BATCH transactions (POST /tx/send_batch), each
 * with the shape of one; otherwise what is wrong, naming the transaction by its index.
 */
export function txBatchProblem(body: unknown): string | null {
  if (!Array.isArray(body) || body.length === 0 || body.length > MAX_TXS_PER_BATCH)
    return `body must be a JSON array of 1 to ${MAX_TXS_PER_BATCH} transactions`;
  for (const [i, tx] of body.entries()) {
    const problem = txBodyProblem(tx);
    if (problem !== null) return `transaction ${i}: ${problem}`;
  }
  return null;
}
