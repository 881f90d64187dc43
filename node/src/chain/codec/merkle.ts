/**
 * Merkle roots as in RFC 6962 (Certificate Transparency), section 2.1, with SHA-256:
 *   leaf hash  = SHA-256(0x00 || leaf data)
 *   inner hash = SHA-256(0x01 || left || right)
 *   MTH of n > 1 leaves splits at k, the largest power of two below n;
 *   the root of no leaves is SHA-256 of the empty string.
 * The 0x00/0x01 prefixes keep a leaf from ever passing for an inner node.
 */
import { sha256 } from '../../crypto/hash.js';

const LEAF = 0x00;
const INNER = 0x01;

export function leafHash(data: Uint8Array): Uint8Array {
  const input = new Uint8Array(data.length + 1);
  input[0] = LEAF;
  input.set(data, 1);
  return sha256(input);
}

function innerHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(65);
  input[0] = INNER;
  input.set(left, 1);
  input.set(right, 33);
  return sha256(input);
}

function rootOf(hashes: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const n = to - from;
  if (n === 1) return hashes[from]!;
  let k = 1;
  while (k * 2 < n) k *= 2;
  return innerHash(rootOf(hashes, from, from + k), rootOf(hashes, from + k, to));
}

/** Root over leaves whose leaf hashes are already computed (lets callers cache them). */
export function merkleRootOfLeafHashes(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return sha256(new Uint8Array(0));
  return rootOf(hashes, 0, hashes.length);
}

/**
 * The same root over leaf hashes given one at a time, in O(log n) memory: the perfect subtrees of
 * the leaves so far, largest first (a binary counter). RFC 6962 splits n leaves at the largest
 * power of two below n, which is the first of these subtrees, so the root folds them from the right.
 */
export class MerkleFrontier {
  private readonly subtrees: { size: number; hash: Uint8Array }[] = [];
  private count = 0;

  push(leaf: Uint8Array): void {
    let node = { size: 1, hash: leaf };
    for (
      let top = this.subtrees.at(-1);
      top !== undefined && top.size === node.size;
      top = this.subtrees.at(-1)
    ) {
      this.subtrees.pop();
      node = { size: node.size * 2, hash: innerHash(top.hash, node.hash) };
    }
    this.subtrees.push(node);
    this.count++;
  }

  get size(): number {
    return this.count;
  }

  root(): Uint8Array {
    if (this.subtrees.length === 0) return sha256(new Uint8Array(0));
    let acc = this.subtrees.at(-1)!.hash;
    for (let i = this.subtrees.length - 2; i >= 0; i--) acc = innerHash(this.subtrees[i]!.hash, acc);
    return acc;
  }
}

export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return merkleRootOfLeafHashes(leaves.map(leafHash));
}
