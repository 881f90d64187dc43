/**
 * state_root = RFC 6962 Merkle root over the state entries in key order, where an entry's
 * leaf data is str(key) || bytes(value). Leaf hashes of entries whose value object did not
 * change since an earlier state are reused: same object, same bytes, same hash.
 */
import { bytesToHex } from '../../crypto/hex.js';
import { Writer } from '../codec/encoding.js';
import { leafHash, merkleRootOfLeafHashes } from '../codec/merkle.js';
import { forEachEntry } from './entries.js';
import type { ChainState } from './types.js';

export function entryLeafData(key: string, value: Uint8Array): Uint8Array {
  return new Writer().str(key).bytes(value).finish();
}

const leafCache = new WeakMap<object, { key: string; hash: Uint8Array }>();

export function stateRootBytes(s: ChainState): Uint8Array {
  const hashes: Uint8Array[] = [];
  forEachEntry(s, (key, source, encode) => {
    const cached = source === null ? undefined : leafCache.get(source);
    if (cached !== undefined && cached.key === key) {
      hashes.push(cached.hash);
      return;
    }
    const hash = leafHash(entryLeafData(key, encode()));
    if (source !== null) leafCache.set(source, { key, hash });
    hashes.push(hash);
  });
  return merkleRootOfLeafHashes(hashes);
}

export function stateRoot(s: ChainState): string {
  return bytesToHex(stateRootBytes(s));
}
