/**
 * The JSON form of a transaction (POST /tx/send, gossip) <-> Tx. Every check here is about
 * format; a failure is the RPC's 400 `Invalid transaction format`, with the reason for logs.
 * Rules that depend on state (balance, nonce, stake) are in execute/.
 */
import { ACCOUNT_PREFIX, isAddress, VALIDATOR_PREFIX } from '../../crypto/address.js';
import { isHex } from '../../crypto/hex.js';
import { PUBLIC_KEY_BYTES } from '../../crypto/keys.js';
import { SIGNATURE_BYTES } from '../../crypto/signature.js';
import { parseWei, ppmToRate, rateToPpm } from '../amounts.js';
import { isWellFormed } from '../codec/encoding.js';
import { parseSemVer } from '../semver.js';
import { frozenTx } from './signing.js';
import {
  MAX_MEMO_BYTES,
  MAX_NAME_BYTES,
  PAYLOAD_FIELDS,
  type PayloadField,
  RECIPIENT_KIND,
  TX_TYPES,
  type Tx,
  type TxPayload,
  type TxType,
} from './types.js';

/**
 * A batch of transactions in their JSON form, one JSON array (a `/chain/txs/1.0.0` gossip
 * message, a POST /tx/send_batch body): at most this many transactions and bytes.
 */
export const MAX_TXS_PER_BATCH = 256;
export const MAX_TXS_BATCH_BYTES = 1024 * 1024;

/** The wire shape; amounts are decimal strings, keys and signatures lowercase hex. */
export interface TxJson {
  tx_type: TxType;
  from_address: string;
  to_address?: string | null;
  amount: string;
  fee: string;
  nonce: number;
  gas_price: number;
  gas_limit: number;
  timestamp: number;
  pub_key: string;
  signature: string;
  payload: Record<string, unknown>;
  /** Optional: lets a node say "wrong chain" instead of "invalid signature". Not signed separately. */
  chain_id?: string;
}

export type WireResult = { ok: true; tx: Tx; chainId: string | undefined } | { ok: false; reason: string };

const WIRE_PAYLOAD_NAMES: Readonly<Record<PayloadField, string>> = {
  memo: 'memo',
  name: 'name',
  commissionPpm: 'commission_rate',
  rewardAddress: 'reward_address',
  taskId: 'task_id',
  resultHash: 'result_hash',
  targetVersion: 'target_version',
  upgradeHeight: 'upgrade_height',
};

const TOP_LEVEL_FIELDS = new Set([
  'tx_type',
  'from_address',
  'to_address',
  'amount',
  'fee',
  'nonce',
  'gas_price',
  'gas_limit',
  'timestamp',
  'pub_key',
  'signature',
  'payload',
  'chain_id',
]);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const utf8 = new TextEncoder();

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isUint(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function fail(reason: string): WireResult {
  return { ok: false, reason };
}

function parsePayload(type: TxType, raw: Record<string, unknown>): TxPayload | string {
  const spec = PAYLOAD_FIELDS[type];
  const allowedWire = new Map(spec.allowed.map((f) => [WIRE_PAYLOAD_NAMES[f], f]));
  const out: { -readonly [K in PayloadField]?: TxPayload[K] } = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = allowedWire.get(key);
    if (field === undefined) return `payload field ${key} is not allowed for ${type}`;
    switch (field) {
      case 'memo':
        if (typeof value !== 'string' || !isWellFormed(value) || utf8.encode(value).length > MAX_MEMO_BYTES)
          return `payload.memo must be a well-formed string of at most ${MAX_MEMO_BYTES} bytes`;
        out.memo = value;
        break;
      case 'name':
        if (
          typeof value !== 'string' ||
          !isWellFormed(value) ||
          value.length === 0 ||
          utf8.encode(value).length > MAX_NAME_BYTES
        )
          return `payload.name must be a well-formed string of 1 to ${MAX_NAME_BYTES} bytes`;
        out.name = value;
        break;
      case 'commissionPpm': {
        // Whether it lies in 0..1 is a rule with its own rejection (INVALID_COMMISSION).
        const ppm = typeof value === 'number' ? rateToPpm(value) : null;
        if (ppm === null)
          return 'payload.commission_rate must be a non-negative number with at most 6 decimals';
        out.commissionPpm = ppm;
        break;
      }
      case 'rewardAddress':
        if (typeof value !== 'string' || !isAddress(value, ACCOUNT_PREFIX))
          return 'payload.reward_address must be a coin1 address';
        out.rewardAddress = value;
        break;
      case 'taskId':
        if (typeof value !== 'string' || !UUID_RE.test(value))
          return 'payload.task_id must be a lowercase UUID';
        out.taskId = value;
        break;
      case 'resultHash':
        if (typeof value !== 'string' || !isHex(value, 32))
          return 'payload.result_hash must be 64 lowercase hex';
        out.resultHash = value;
        break;
      case 'targetVersion':
        if (typeof value !== 'string' || parseSemVer(value) === null)
          return 'payload.target_version must be a version MAJOR.MINOR.PATCH';
        out.targetVersion = value;
        break;
      case 'upgradeHeight':
        if (!isUint(value) || value === 0)
          return 'payload.upgrade_height must be an integer from 1 to 2^53-1';
        out.upgradeHeight = value;
        break;
    }
  }
  for (const field of spec.required) {
    if (out[field] === undefined) return `payload.${WIRE_PAYLOAD_NAMES[field]} is required for ${type}`;
  }
  return out;
}

/** Parses an untrusted JSON value into a Tx, or says which field is malformed. */
export function txFromJson(input: unknown): WireResult {
  if (!isPlainObject(input)) return fail('body must be a JSON object');
  for (const key of Object.keys(input)) if (!TOP_LEVEL_FIELDS.has(key)) return fail(`unknown field ${key}`);
  const j = input;
  if (typeof j.tx_type !== 'string' || !(TX_TYPES as readonly string[]).includes(j.tx_type))
    return fail(`tx_type must be one of ${TX_TYPES.join(', ')}`);
  const type = j.tx_type as TxType;
  if (typeof j.from_address !== 'string' || !isAddress(j.from_address, ACCOUNT_PREFIX))
    return fail('from_address must be a coin1 address');
  let to: string | null = null;
  if (j.to_address !== undefined && j.to_address !== null && j.to_address !== '') {
    if (typeof j.to_address !== 'string') return fail('to_address must be a string');
    const kind = RECIPIENT_KIND[type];
    if (kind === 'none') return fail(`to_address must be absent for ${type}`);
    const prefix = kind === 'account' ? ACCOUNT_PREFIX : VALIDATOR_PREFIX;
    if (!isAddress(j.to_address, prefix)) return fail(`to_address must be a ${prefix}1 address for ${type}`);
    to = j.to_address;
  } else if (RECIPIENT_KIND[type] !== 'none') {
    return fail(`to_address is required for ${type}`);
  }
  if (typeof j.amount !== 'string') return fail('amount must be a decimal string');
  const amount = parseWei(j.amount);
  if (amount === null) return fail('amount must be decimal digits below 2^256');
  if (typeof j.fee !== 'string') return fail('fee must be a decimal string');
  const fee = parseWei(j.fee);
  if (fee === null) return fail('fee must be decimal digits below 2^256');
  // gas_price and gas_limit default to 0 (specification); nonce and timestamp are required.
  const gasPrice = j.gas_price ?? 0;
  const gasLimit = j.gas_limit ?? 0;
  for (const [name, value] of [
    ['nonce', j.nonce],
    ['gas_price', gasPrice],
    ['gas_limit', gasLimit],
    ['timestamp', j.timestamp],
  ] as const) {
    if (!isUint(value)) return fail(`${name} must be an integer from 0 to 2^53-1`);
  }
  if (typeof j.pub_key !== 'string' || !isHex(j.pub_key, PUBLIC_KEY_BYTES))
    return fail(`pub_key must be ${PUBLIC_KEY_BYTES * 2} lowercase hex (compressed key)`);
  if (typeof j.signature !== 'string' || !isHex(j.signature, SIGNATURE_BYTES))
    return fail(`signature must be ${SIGNATURE_BYTES * 2} lowercase hex`);
  const rawPayload = j.payload === undefined ? {} : j.payload;
  if (!isPlainObject(rawPayload)) return fail('payload must be an object');
  const payload = parsePayload(type, rawPayload);
  if (typeof payload === 'string') return fail(payload);
  if (j.chain_id !== undefined && typeof j.chain_id !== 'string') return fail('chain_id must be a string');
  return {
    ok: true,
    chainId: j.chain_id as string | undefined,
    tx: frozenTx({
      type,
      from: j.from_address,
      to,
      amount,
      fee,
      nonce: j.nonce as number,
      gasPrice: gasPrice as number,
      gasLimit: gasLimit as number,
      timestamp: j.timestamp as number,
      pubKey: j.pub_key,
      signature: j.signature,
      payload,
    }),
  };
}

export function payloadToJson(payload: TxPayload): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (payload.memo !== undefined) out.memo = payload.memo;
  if (payload.name !== undefined) out.name = payload.name;
  if (payload.commissionPpm !== undefined) out.commission_rate = ppmToRate(payload.commissionPpm);
  if (payload.rewardAddress !== undefined) out.reward_address = payload.rewardAddress;
  if (payload.taskId !== undefined) out.task_id = payload.taskId;
  if (payload.resultHash !== undefined) out.result_hash = payload.resultHash;
  if (payload.targetVersion !== undefined) out.target_version = payload.targetVersion;
  if (payload.upgradeHeight !== undefined) out.upgrade_height = payload.upgradeHeight;
  return out;
}

export function txToJson(tx: Tx): TxJson {
  const out: TxJson = {
    tx_type: tx.type,
    from_address: tx.from,
    amount: tx.amount.toString(),
    fee: tx.fee.toString(),
    nonce: tx.nonce,
    gas_price: tx.gasPrice,
    gas_limit: tx.gasLimit,
    timestamp: tx.timestamp,
    pub_key: tx.pubKey,
    signature: tx.signature,
    payload: payloadToJson(tx.payload),
  };
  if (tx.to !== null) out.to_address = tx.to;
  return out;
}
