/**
 * Merkle roots (codec/merkle.ts): RFC 6962 with SHA-256, against the Certificate Transparency
 * reference roots.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  leafHash,
  MerkleFrontier,
  merkleRoot,
  merkleRootOfLeafHashes,
} from '../../../../src/chain/codec/merkle.js';
import { bytesToHex, hexToBytes } from '../../../../src/crypto/hex.js';

describe('merkleRoot (RFC 6962, SHA-256)', () => {
  const cat = (...parts: Uint8Array[]): Uint8Array => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const leaf = (data: Uint8Array) => sha256(cat(new Uint8Array([0x00]), data));
  const inner = (l: Uint8Array, r: Uint8Array) => sha256(cat(new Uint8Array([0x01]), l, r));
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(utf8) as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];

  it('of no leaves is SHA-256 of the empty string', () => {
    assert.equal(
      bytesToHex(merkleRoot([])),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    assert.deepEqual(merkleRoot([]), sha256(new Uint8Array(0)));
  });

  it('of one leaf is SHA-256(0x00 || leaf)', () => {
    assert.deepEqual(merkleRoot([a]), leaf(a));
    assert.deepEqual(leafHash(a), leaf(a));
    // The empty leaf: SHA-256 of the single byte 0x00.
    assert.equal(
      bytesToHex(merkleRoot([new Uint8Array(0)])),
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
  });

  it('of two leaves is SHA-256(0x01 || leaf hash || leaf hash)', () => {
    assert.deepEqual(merkleRoot([a, b]), inner(leaf(a), leaf(b)));
    assert.notDeepEqual(merkleRoot([a, b]), merkleRoot([b, a]));
  });

  it('of three leaves splits 2 + 1', () => {
    assert.deepEqual(merkleRoot([a, b, c]), inner(inner(leaf(a), leaf(b)), leaf(c)));
  });

  it('of four and five leaves splits at the largest power of two below n', () => {
    const ab = inner(leaf(a), leaf(b));
    const cd = inner(leaf(c), leaf(d));
    assert.deepEqual(merkleRoot([a, b, c, d]), inner(ab, cd));
    assert.deepEqual(merkleRoot([a, b, c, d, e]), inner(inner(ab, cd), leaf(e)));
  });

  it('keeps a leaf from passing for an inner node (second preimage)', () => {
    // The two-leaf root's preimage, offered as one leaf, hashes differently.
    const forged = cat(leaf(a), leaf(b));
    assert.notDeepEqual(merkleRoot([forged]), merkleRoot([a, b]));
  });

  it('matches the Certificate Transparency reference roots', () => {
    const leaves = [
      '',
      '00',
      '10',
      '2021',
      '3031',
      '40414243',
      '5051525354555657',
      '606162636465666768696a6b6c6d6e6f',
    ].map((h) => hexToBytes(h));
    const roots = [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
      '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
      'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
      '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
    ];
    for (const [i, root] of roots.entries())
      assert.equal(bytesToHex(merkleRoot(leaves.slice(0, i + 1))), root, `${i + 1} leaves`);
  });

  it('from precomputed leaf hashes equals the root from the leaves', () => {
    const leaves = [a, b, c, d, e];
    for (let n = 0; n <= leaves.length; n++) {
      const some = leaves.slice(0, n);
      assert.deepEqual(merkleRootOfLeafHashes(some.map(leafHash)), merkleRoot(some));
    }
  });

  it('one leaf at a time (MerkleFrontier, O(log n) memory) gives the same root for every count', () => {
    const hashes: Uint8Array[] = [];
    const frontier = new MerkleFrontier();
    for (let n = 0; n <= 130; n++) {
      assert.equal(bytesToHex(frontier.root()), bytesToHex(merkleRootOfLeafHashes(hashes)), `${n} leaves`);
      assert.equal(frontier.size, n);
      const next = leafHash(new Uint8Array([n, n >> 8]));
      hashes.push(next);
      frontier.push(next);
    }
  });
});
