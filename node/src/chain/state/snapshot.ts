/**
 * Snapshots, the pure part (docs/PROTOCOL.md, "Snapshots"). The content is the state entries
 * with the chain position in front:
 *   content = str("chain-snapshot/v1") str(chain_id) u64(height) raw32(last_block_hash)
 *             u64(last_timestamp) u32(entry count) { str(key) bytes(value) }*
 *   hash    = SHA-256(content), the same on every node at the same height (DESIGN decision 12);
 *   file    = gzip(content), deterministic (mtime 0, no name), so equal snapshots are equal files.
 * Decoding refuses a file whose content does not hash to the expected value, and rebuilds
 * the state, whose root can then be checked against the block at that height.
 */
import { gunzipSync, gzipSync } from 'fflate';
import { sha256 } from '../../crypto/hash.js';
import { bytesToHex } from '../../crypto/hex.js';
import { DecodeError, Reader, Writer } from '../codec/encoding.js';
import { type StateEntry, stateEntries, stateFromEntries } from './entries.js';
import { type ChainState, epochAt } from './types.js';

export const SNAPSHOT_DOMAIN = 'chain-snapshot/v1';
/** Refuse to inflate anything claiming more than this (a gzip bomb must not take the node's memory). */
export const MAX_SNAPSHOT_CONTENT_BYTES = 1 << 30;
/** The largest snapshot file (gzip bytes) a node serves (state sync, GET /snapshots/{h}/content) and a reader accepts. */
export const MAX_SNAPSHOT_FILE_BYTES = 256 * 1024 * 1024;

export interface SnapshotInfo {
  readonly height: number;
  readonly timestamp: number;
  readonly hash: string;
  readonly epoch: number;
  readonly validatorCount: number;
  readonly accountCount: number;
  readonly contentBytes: number;
}

export interface EncodedSnapshot {
  readonly info: SnapshotInfo;
  /** The gzip file. */
  readonly file: Uint8Array;
}

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

export function snapshotContent(state: ChainState): Uint8Array {
  const entries = stateEntries(state);
  const w = new Writer()
    .str(SNAPSHOT_DOMAIN)
    .str(state.params.chainId)
    .u64(state.height)
    .rawHex(state.lastBlockHash, 32)
    .u64(state.lastTimestamp)
    .u32(entries.length);
  for (const e of entries) w.str(e.key).bytes(e.value);
  return w.finish();
}

function infoOf(state: ChainState, content: Uint8Array): SnapshotInfo {
  return {
    height: state.height,
    timestamp: state.lastTimestamp,
    hash: bytesToHex(sha256(content)),
    epoch: epochAt(state.height, state.params.epochLength),
    validatorCount: state.validators.size,
    accountCount: state.accounts.size,
    contentBytes: content.length,
  };
}

export function encodeSnapshot(state: ChainState): EncodedSnapshot {
  const content = snapshotContent(state);
  return { info: infoOf(state, content), file: gzipSync(content, { level: 6, mtime: 0 }) };
}

/** gzip's trailer holds the uncompressed size mod 2^32: checked before inflating. */
function declaredSize(file: Uint8Array): number {
  if (file.length < 18 || file[0] !== 0x1f || file[1] !== 0x8b) throw new SnapshotError('not a gzip file');
  const n = file.length;
  return (file[n - 4]! | (file[n - 3]! << 8) | (file[n - 2]! << 16) | (file[n - 1]! << 24)) >>> 0;
}

/** Inflates, verifies the hash, and rebuilds the state; throws SnapshotError on any mismatch. */
export function decodeSnapshot(
  file: Uint8Array,
  expectedHash: string,
): { state: ChainState; info: SnapshotInfo } {
  if (declaredSize(file) > MAX_SNAPSHOT_CONTENT_BYTES) throw new SnapshotError('snapshot too large');
  let content: Uint8Array;
  try {
    content = gunzipSync(file);
  } catch (e) {
    throw new SnapshotError(`corrupt gzip: ${(e as Error).message}`);
  }
  const hash = bytesToHex(sha256(content));
  if (hash !== expectedHash)
    throw new SnapshotError(`snapshot hash ${hash} does not match the expected ${expectedHash}`);
  try {
    const r = new Reader(content);
    if (r.str() !== SNAPSHOT_DOMAIN) throw new SnapshotError('not a chain snapshot (wrong domain tag)');
    const chainId = r.str();
    const position = { height: r.u64(), lastBlockHash: r.rawHex(32), lastTimestamp: r.u64() };
    const entries: StateEntry[] = [];
    for (let n = r.u32(), i = 0; i < n; i++) entries.push({ key: r.str(), value: r.bytes() });
    r.end();
    const state = stateFromEntries(entries, position);
    if (state.params.chainId !== chainId)
      throw new SnapshotError(`snapshot header says chain ${chainId}, its params ${state.params.chainId}`);
    return { state, info: infoOf(state, content) };
  } catch (e) {
    if (e instanceof DecodeError) throw new SnapshotError(`malformed snapshot: ${e.message}`);
    throw e;
  }
}

/** Whether the node takes a snapshot after the block at `height`: every interval and every epoch boundary. */
export function isSnapshotHeight(
  height: number,
  params: Pick<ChainState['params'], 'snapshotInterval' | 'epochLength'>,
): boolean {
  return height > 0 && (height % params.snapshotInterval === 0 || height % params.epochLength === 0);
}
