/**
 * The bytes on the gossip topics and the sync protocol: UTF-8 JSON (docs/PROTOCOL.md,
 * "Peer-to-peer"). Decoders check shape and formats only and say why a message is malformed;
 * authenticity (signatures against the active set) is the driver's check.
 * `sent_at` makes a re-sent message new bytes (gossipsub drops exact duplicates by id).
 */

import type { Block, Proposal } from '../chain/index.js';
import {
  type BlockJson,
  blockFromJson,
  blockHash,
  blockToJson,
  type Commit,
  MAX_TXS_BATCH_BYTES,
  MAX_TXS_PER_BATCH,
  type Vote,
} from '../chain/index.js';
import { isAddress, VALIDATOR_PREFIX } from '../crypto/address.js';
import { isHex } from '../crypto/hex.js';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeJson(value: unknown): Uint8Array {
  return utf8.encode(JSON.stringify(value));
}

export function decodeJson(bytes: Uint8Array): unknown {
  return JSON.parse(fromUtf8.decode(bytes));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isUint = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;

export function encodeVote(v: Vote, sentAt: number): Uint8Array {
  return encodeJson({
    type: 'vote',
    kind: v.kind,
    height: v.height,
    round: v.round,
    block_hash: v.blockHash,
    validator: v.validator,
    signature: v.signature,
    sent_at: sentAt,
  });
}

export function decodeVote(bytes: Uint8Array): Vote | string {
  const j = decodeJson(bytes);
  if (!isObject(j) || j.type !== 'vote') return 'not a vote';
  if (j.kind !== 'prevote' && j.kind !== 'precommit') return 'kind must be prevote or precommit';
  if (!isUint(j.height) || !isUint(j.round, 0xffffffff)) return 'height and round must be integers';
  if (j.block_hash !== null && (typeof j.block_hash !== 'string' || !isHex(j.block_hash, 32)))
    return 'block_hash must be 64 hex or null';
  if (typeof j.validator !== 'string' || !isAddress(j.validator, VALIDATOR_PREFIX))
    return 'validator must be a coinvalcons1 address';
  if (typeof j.signature !== 'string' || !isHex(j.signature, 65)) return 'signature must be 130 hex';
  return {
    kind: j.kind,
    height: j.height,
    round: j.round,
    blockHash: j.block_hash,
    validator: j.validator,
    signature: j.signature,
  };
}

export function encodeProposal(p: Proposal, sentAt: number): Uint8Array {
  return encodeJson({
    type: 'proposal',
    height: p.height,
    round: p.round,
    pol_round: p.polRound,
    block_hash: p.blockHash,
    proposer: p.proposer,
    signature: p.signature,
    block: blockToJson(p.block),
    sent_at: sentAt,
  });
}

export function decodeProposal(bytes: Uint8Array): Proposal | string {
  const j = decodeJson(bytes);
  if (!isObject(j) || j.type !== 'proposal') return 'not a proposal';
  if (!isUint(j.height) || !isUint(j.round, 0xffffffff)) return 'height and round must be integers';
  if (!Number.isSafeInteger(j.pol_round) || (j.pol_round as number) < -1)
    return 'pol_round must be an integer >= -1';
  if (typeof j.proposer !== 'string' || !isAddress(j.proposer, VALIDATOR_PREFIX))
    return 'proposer must be a coinvalcons1 address';
  if (typeof j.signature !== 'string' || !isHex(j.signature, 65)) return 'signature must be 130 hex';
  const parsed = blockFromJson(j.block);
  if (!parsed.ok) return `block: ${parsed.reason}`;
  const hash = blockHash(parsed.block.header);
  if (j.block_hash !== hash) return 'block_hash is not the hash of the block';
  if (parsed.block.header.height !== j.height) return 'block height differs from the proposal height';
  return {
    height: j.height,
    round: j.round,
    polRound: j.pol_round as number,
    block: parsed.block,
    blockHash: hash,
    proposer: j.proposer,
    signature: j.signature,
  };
}

export function commitToJson(c: Commit) {
  return { height: c.height, round: c.round, block_hash: c.blockHash, signatures: c.signatures };
}

export function commitFromJson(j: unknown): Commit | string {
  if (!isObject(j) || !isUint(j.height) || !isUint(j.round, 0xffffffff))
    return 'commit height and round must be integers';
  if (typeof j.block_hash !== 'string' || !isHex(j.block_hash, 32)) return 'commit block_hash must be 64 hex';
  if (!Array.isArray(j.signatures) || j.signatures.length > 10_000)
    return 'commit signatures must be an array';
  const signatures = [];
  for (const s of j.signatures) {
    if (
      !isObject(s) ||
      typeof s.validator !== 'string' ||
      typeof s.signature !== 'string' ||
      !isHex(s.signature, 65)
    )
      return 'commit signature entries must be {validator, signature}';
    signatures.push({ validator: s.validator, signature: s.signature });
  }
  return { height: j.height, round: j.round, blockHash: j.block_hash, signatures };
}

/** Sync protocol requests and responses. */
export type SyncRequest = { type: 'status' } | { type: 'blocks'; from: number; to: number };
export const MAX_SYNC_BLOCKS = 64;

export function decodeSyncRequest(bytes: Uint8Array): SyncRequest | string {
  const j = decodeJson(bytes);
  if (!isObject(j)) return 'request must be an object';
  if (j.type === 'status') return { type: 'status' };
  if (j.type === 'blocks' && isUint(j.from) && isUint(j.to) && j.to >= j.from)
    return { type: 'blocks', from: j.from, to: j.to };
  return 'request must be {type: status} or {type: blocks, from, to}';
}

export interface SyncedBlock {
  readonly block: Block;
  readonly commit: Commit;
}

export function decodeBlocksResponse(bytes: Uint8Array): SyncedBlock[] | string {
  const j = decodeJson(bytes);
  if (!isObject(j) || !Array.isArray(j.blocks)) return 'response must be {blocks: [...]}';
  const out: SyncedBlock[] = [];
  for (const [i, entry] of j.blocks.entries()) {
    if (!isObject(entry)) return `blocks[${i}] must be an object`;
    const block = blockFromJson(entry.block as BlockJson);
    if (!block.ok) return `blocks[${i}].block: ${block.reason}`;
    const commit = commitFromJson(entry.commit);
    if (typeof commit === 'string') return `blocks[${i}].commit: ${commit}`;
    out.push({ block: block.block, commit });
  }
  return out;
}

/**
 * `/chain/txs/1.0.0`: one transaction as its JSON object, or several as a JSON array of those
 * objects (a node gossips the transactions its RPC admitted in one batch as one message: fewer
 * messages per transaction for every peer to receive, decode and forward).
 */

/**
 * Messages for `txs` (transaction JSON objects): a lone transaction as its object, more as arrays
 * of at most MAX_TXS_PER_BATCH transactions and MAX_TXS_BATCH_BYTES bytes, in order. A
 * transaction too large to fit a message alone is left out (the RPC's body limit is far below).
 */
export function encodeTxsMessages(txs: readonly unknown[]): Uint8Array[] {
  const encoded = txs.map((t) => utf8.encode(JSON.stringify(t)));
  const out: Uint8Array[] = [];
  let group: Uint8Array[] = [];
  let bytes = 2; // the brackets
  const emit = () => {
    if (group.length === 1) out.push(group[0]!);
    else if (group.length > 1) out.push(joinArray(group, bytes));
    group = [];
    bytes = 2;
  };
  for (const e of encoded) {
    if (e.length + 2 > MAX_TXS_BATCH_BYTES) continue;
    const added = e.length + (group.length > 0 ? 1 : 0);
    if (group.length === MAX_TXS_PER_BATCH || bytes + added > MAX_TXS_BATCH_BYTES) emit();
    bytes += e.length + (group.length > 0 ? 1 : 0);
    group.push(e);
  }
  emit();
  return out;
}

function joinArray(parts: readonly Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out[0] = 0x5b; // [
  let at = 1;
  for (const [i, p] of parts.entries()) {
    if (i > 0) out[at++] = 0x2c; // ,
    out.set(p, at);
    at += p.length;
  }
  out[at] = 0x5d; // ]
  return out;
}

/**
 * The transactions of a `/chain/txs/1.0.0` message, still unchecked JSON values (the admission
 * pipeline decodes each), or why the message is malformed: not UTF-8 JSON, over
 * MAX_TXS_BATCH_BYTES, neither an object nor an array, an empty array, an array of more than
 * MAX_TXS_PER_BATCH entries, or an entry that is not an object.
 */
export function decodeTxsMessage(bytes: Uint8Array): unknown[] | string {
  if (bytes.length > MAX_TXS_BATCH_BYTES) return `message over ${MAX_TXS_BATCH_BYTES} bytes`;
  let j: unknown;
  try {
    j = decodeJson(bytes);
  } catch (e) {
    return `not UTF-8 JSON: ${(e as Error).message}`;
  }
  if (isObject(j)) return [j];
  if (!Array.isArray(j)) return 'a transaction object or an array of them';
  if (j.length === 0) return 'empty array of transactions';
  if (j.length > MAX_TXS_PER_BATCH) return `more than ${MAX_TXS_PER_BATCH} transactions`;
  for (const [i, t] of j.entries()) if (!isObject(t)) return `entry ${i} is not a transaction object`;
  return j;
}
