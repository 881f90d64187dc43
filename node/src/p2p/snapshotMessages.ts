/**
 * The messages of `/chain/snapshot/1.0.0` (docs/PROTOCOL.md, "Snapshot protocol"): UTF-8 JSON,
 * one request and one answer per stream. A snapshot's gzip file is served in chunks of
 * SNAPSHOT_CHUNK_BYTES (the last one shorter), base64 in the answer, so that every answer stays
 * far below MAX_MESSAGE_BYTES. Decoders check shape and bounds only; the joiner checks the bytes
 * against the offer (sizes, then the content's SHA-256, then the state root of a committed header).
 */
import { MAX_SNAPSHOT_FILE_BYTES } from '../chain/index.js';
import { isHex } from '../crypto/hex.js';
import { decodeJson, encodeJson } from './messages.js';

export { MAX_SNAPSHOT_FILE_BYTES };

/** 256 KiB per chunk: about 350 KB of base64 per answer. */
export const SNAPSHOT_CHUNK_BYTES = 256 * 1024;
/** MAX_SNAPSHOT_FILE_BYTES in chunks. */
export const MAX_SNAPSHOT_CHUNKS = MAX_SNAPSHOT_FILE_BYTES / SNAPSHOT_CHUNK_BYTES;
/** Offers listed per answer (a node keeps `snapshots_kept`, 10 by default). */
export const MAX_SNAPSHOT_OFFERS = 32;

export interface SnapshotOffer {
  readonly height: number;
  /** SHA-256 of the uncompressed content, hex (the `hash` of GET /snapshots). */
  readonly hash: string;
  readonly chunks: number;
  /** Bytes of the gzip file. */
  readonly size: number;
}

export type SnapshotRequest =
  | { readonly type: 'offers' }
  | { readonly type: 'chunk'; readonly height: number; readonly index: number };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isUint = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;

/** Chunks of a file of `size` bytes. */
export const chunkCount = (size: number) => Math.ceil(size / SNAPSHOT_CHUNK_BYTES);

function parse(bytes: Uint8Array): unknown {
  try {
    return decodeJson(bytes);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
}

export function decodeSnapshotRequest(bytes: Uint8Array): SnapshotRequest | string {
  const j = parse(bytes);
  if (!isObject(j)) return typeof j === 'string' ? j : 'request must be an object';
  if (j.type === 'offers') return { type: 'offers' };
  if (j.type !== 'chunk') return 'type must be offers or chunk';
  if (!isUint(j.height) || !isUint(j.index, MAX_SNAPSHOT_CHUNKS - 1))
    return `height must be an integer and index one below ${MAX_SNAPSHOT_CHUNKS}`;
  return { type: 'chunk', height: j.height, index: j.index };
}

export const encodeSnapshotRequest = (r: SnapshotRequest) => encodeJson(r);

export const encodeOffers = (offers: readonly SnapshotOffer[]) => encodeJson({ offers });

/** Offers within the limits; an offer outside them makes the whole answer malformed. */
export function decodeOffers(bytes: Uint8Array): SnapshotOffer[] | string {
  const j = parse(bytes);
  // A peer that cannot answer (`not ready` while its state loads) offers nothing, and is no liar.
  if (isObject(j) && typeof j.error === 'string') return [];
  if (!isObject(j) || !Array.isArray(j.offers)) return 'answer must be {offers: [...]}';
  if (j.offers.length > MAX_SNAPSHOT_OFFERS) return `more than ${MAX_SNAPSHOT_OFFERS} offers`;
  const out: SnapshotOffer[] = [];
  for (const [i, o] of j.offers.entries()) {
    if (!isObject(o) || !isUint(o.height) || o.height === 0) return `offers[${i}].height must be above 0`;
    if (typeof o.hash !== 'string' || !isHex(o.hash, 32)) return `offers[${i}].hash must be 64 hex`;
    if (!isUint(o.size, MAX_SNAPSHOT_FILE_BYTES) || o.size === 0)
      return `offers[${i}].size must be 1..${MAX_SNAPSHOT_FILE_BYTES} bytes`;
    if (o.chunks !== chunkCount(o.size))
      return `offers[${i}].chunks must be ${chunkCount(o.size)} for ${o.size} bytes`;
    out.push({ height: o.height, hash: o.hash, chunks: o.chunks, size: o.size });
  }
  return out;
}

export const encodeChunk = (chunk: Uint8Array) =>
  encodeJson({ chunk: Buffer.from(chunk).toString('base64') });

/** The bytes of chunk `index` of `offer`: exactly its length (a full chunk, or the rest). */
export function decodeChunk(bytes: Uint8Array, offer: SnapshotOffer, index: number): Uint8Array | string {
  const j = parse(bytes);
  if (!isObject(j) || typeof j.chunk !== 'string')
    return isObject(j) && typeof j.error === 'string' ? `peer says: ${j.error}` : 'answer must be {chunk}';
  const chunk = new Uint8Array(Buffer.from(j.chunk, 'base64'));
  const expected = Math.min(SNAPSHOT_CHUNK_BYTES, offer.size - index * SNAPSHOT_CHUNK_BYTES);
  if (chunk.length !== expected) return `chunk ${index} has ${chunk.length} bytes, not ${expected}`;
  return chunk;
}
