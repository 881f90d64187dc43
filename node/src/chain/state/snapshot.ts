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
import { gzipSync } from 'fflate';
import { sha256 } from '../../crypto/hash.js';
import { bytesToHex } from '../../crypto/hex.js';
import { DecodeError, Writer } from '../codec/encoding.js';
import { stateEntries } from './entries.js';
import {
  SNAPSHOT_DOMAIN,
  SnapshotError,
  type SnapshotHeader,
  type SnapshotLimits,
  SnapshotStream,
} from './snapshotStream.js';
import { StateBuilder } from './stateBuilder.js';
import { type ChainState, epochAt } from './types.js';

export type { SnapshotHeader, SnapshotLimits, SnapshotVisitor } from './snapshotStream.js';
export { SNAPSHOT_DOMAIN, SnapshotError, SnapshotStream } from './snapshotStream.js';

/** Refuse to inflate more than this (a gzip bomb must not take the node's memory). */
export const MAX_SNAPSHOT_CONTENT_BYTES = 1 << 30;
/** The largest snapshot file (gzip bytes) a node serves (state sync, GET /snapshots/{h}/content) and a reader accepts. */
export const MAX_SNAPSHOT_FILE_BYTES = 256 * 1024 * 1024;
/**
 * The most content a file may inflate to, per byte of the file: real states measured 2-3.5x
 * (accounts), 5x (delegations), 14x (a long reward history), 61x (100,000 unbonding entries of one
 * delegator, the most repetitive state the rules make); deflate itself reaches about 1,000x.
 */
export const MAX_SNAPSHOT_INFLATION = 256;

/** The bounds of the content of a file of `fileBytes` (docs/PROTOCOL.md, "Snapshots"). */
export function snapshotLimits(fileBytes: number, maxEntries = Number.MAX_SAFE_INTEGER): SnapshotLimits {
  return {
    maxContentBytes: Math.min(MAX_SNAPSHOT_CONTENT_BYTES, fileBytes * MAX_SNAPSHOT_INFLATION),
    maxEntries,
  };
}

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

function infoOf(state: ChainState, hash: string, contentBytes: number): SnapshotInfo {
  return {
    height: state.height,
    timestamp: state.lastTimestamp,
    hash,
    epoch: epochAt(state.height, state.params.epochLength),
    validatorCount: state.validators.size,
    accountCount: state.accounts.size,
    contentBytes,
  };
}

export function encodeSnapshot(state: ChainState): EncodedSnapshot {
  const content = snapshotContent(state);
  return {
    info: infoOf(state, bytesToHex(sha256(content)), content.length),
    file: gzipSync(content, { level: 6, mtime: 0 }),
  };
}

/**
 * Inflates, verifies the hash, and rebuilds the state, in one pass over the file (SnapshotStream:
 * the content is never held whole); throws SnapshotError on any mismatch.
 */
export function decodeSnapshot(
  file: Uint8Array,
  expectedHash: string,
): { state: ChainState; info: SnapshotInfo } {
  const limits = snapshotLimits(file.length);
  // The whole file is here: its trailer's declared size is checked before inflating anything.
  const n = file.length;
  if (n < 18 || file[0] !== 0x1f || file[1] !== 0x8b) throw new SnapshotError('not a gzip file');
  const declared = (file[n - 4]! | (file[n - 3]! << 8) | (file[n - 2]! << 16) | (file[n - 1]! << 24)) >>> 0;
  if (declared > limits.maxContentBytes) throw new SnapshotError('snapshot too large');
  const builder = new StateBuilder();
  const stream = new SnapshotStream(limits, {
    entry: (e) => {
      try {
        builder.add(e);
      } catch (err) {
        if (err instanceof DecodeError) throw new SnapshotError(`malformed snapshot: ${err.message}`);
        throw err;
      }
    },
  });
  stream.push(file, true);
  const { hash, contentBytes, header } = stream.finish();
  if (hash !== expectedHash)
    throw new SnapshotError(`snapshot hash ${hash} does not match the expected ${expectedHash}`);
  const state = snapshotState(builder, header);
  return { state, info: infoOf(state, hash, contentBytes) };
}

/** The state a builder read, checked against the header's chain id; throws SnapshotError. */
export function snapshotState(builder: StateBuilder, header: SnapshotHeader): ChainState {
  let state: ChainState;
  try {
    state = builder.finish(header.position);
  } catch (e) {
    if (e instanceof DecodeError) throw new SnapshotError(`malformed snapshot: ${e.message}`);
    throw e;
  }
  if (state.params.chainId !== header.chainId)
    throw new SnapshotError(
      `snapshot header says chain ${header.chainId}, its params ${state.params.chainId}`,
    );
  return state;
}
/** Whether the node takes a snapshot after the block at `height`: every interval and every epoch boundary. */
export function isSnapshotHeight(
  height: number,
  params: Pick<ChainState['params'], 'snapshotInterval' | 'epochLength'>,
): boolean {
  return height > 0 && (height % params.snapshotInterval === 0 || height % params.epochLength === 0);
}
