/**
 * The state sync protocol's codecs at their limits (docs/PROTOCOL.md, "State sync"): each offer
 * and chunk the joiner refuses, with its reason, and the answers it takes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeJson } from '../../../src/p2p/messages.js';
import {
  decodeChunk,
  decodeOffers,
  decodeSnapshotRequest,
  encodeChunk,
  MAX_SNAPSHOT_CHUNKS,
  MAX_SNAPSHOT_FILE_BYTES,
  SNAPSHOT_CHUNK_BYTES,
} from '../../../src/p2p/snapshotMessages.js';

const HASH = 'ab'.repeat(32);
const offer = (o: Record<string, unknown>) => encodeJson({ offers: [{ height: 20, hash: HASH, ...o }] });

describe('snapshot offers', () => {
  it('takes an offer within the limits, and an error answer as no offer', () => {
    assert.deepEqual(decodeOffers(offer({ size: SNAPSHOT_CHUNK_BYTES + 1, chunks: 2 })), [
      { height: 20, hash: HASH, size: SNAPSHOT_CHUNK_BYTES + 1, chunks: 2 },
    ]);
    assert.deepEqual(decodeOffers(encodeJson({ error: 'not ready' })), []);
  });

  const refused: [string, Uint8Array, RegExp][] = [
    [
      'a size beyond the maximum',
      offer({ size: MAX_SNAPSHOT_FILE_BYTES + 1, chunks: MAX_SNAPSHOT_CHUNKS + 1 }),
      /size/,
    ],
    ['a chunk count that does not match the size', offer({ size: 10, chunks: 2 }), /chunks must be 1/],
    ['height 0', offer({ height: 0, size: 10, chunks: 1 }), /height/],
    ['a hash that is not 64 hex', offer({ hash: 'xyz', size: 10, chunks: 1 }), /hash/],
    ['not JSON', new TextEncoder().encode('{'), /offers/],
  ];
  for (const [what, bytes, reason] of refused)
    it(`refuses ${what}`, () => {
      const r = decodeOffers(bytes);
      assert.equal(typeof r, 'string');
      assert.match(r as string, reason);
    });
});

describe('snapshot chunks', () => {
  const o = { height: 20, hash: HASH, size: SNAPSHOT_CHUNK_BYTES + 5, chunks: 2 };
  it('takes a full chunk and the rest as the last one', () => {
    const full = new Uint8Array(SNAPSHOT_CHUNK_BYTES).fill(7);
    assert.deepEqual(decodeChunk(encodeChunk(full), o, 0), full);
    assert.deepEqual(decodeChunk(encodeChunk(new Uint8Array(5)), o, 1), new Uint8Array(5));
  });
  it('refuses a short chunk, bytes beyond the offer, and an error answer', () => {
    assert.match(decodeChunk(encodeChunk(new Uint8Array(4)), o, 1) as string, /has 4 bytes, not 5/);
    assert.match(decodeChunk(encodeChunk(new Uint8Array(6)), o, 1) as string, /has 6 bytes, not 5/);
    assert.match(decodeChunk(encodeJson({ error: 'no chunk 1' }), o, 1) as string, /peer says: no chunk 1/);
  });
  it('refuses a request for a chunk index beyond the maximum', () => {
    const r = decodeSnapshotRequest(encodeJson({ type: 'chunk', height: 1, index: MAX_SNAPSHOT_CHUNKS }));
    assert.equal(typeof r, 'string');
  });
});
