/**
 * A snapshot read as it arrives (chain/state/snapshotStream.ts): the same entries and hash in
 * pieces of any size as whole, each entry with its leaf data (what the state root hashes); the
 * bounds it holds while inflating (content beyond its bound refused before the rest is inflated,
 * more entries declared than allowed refused at the header, before any entry); the header seen
 * before any entry; a gzip trailer that does not give the content's size refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'fflate';
import { Writer } from '../../../../src/chain/codec/encoding.js';
import {
  encodeSnapshot,
  leafHash,
  MerkleFrontier,
  SNAPSHOT_DOMAIN,
  SnapshotError,
  type SnapshotHeader,
  SnapshotStream,
  snapshotLimits,
  stateEntries,
  stateRoot,
} from '../../../../src/chain/index.js';
import { bytesToHex } from '../../../../src/crypto/hex.js';
import { genesisState, manyAccountsAddress, TestChain } from '../../../fixtures.js';

const state = (() => {
  const c = new TestChain({ manyAccounts: 300 });
  c.produceUntil(3);
  return c.state;
})();
const { file, info } = encodeSnapshot(state);

/** A content header (a chain's snapshot at height 1) declaring `entries` entries, for entries to follow. */
const headerWith = (entries: number) =>
  new Writer()
    .str(SNAPSHOT_DOMAIN)
    .str(genesisState().params.chainId)
    .u64(1)
    .raw(new Uint8Array(32))
    .u64(0)
    .u32(entries);

/** Reads `bytes` in pieces of `piece` bytes: the header, the entries' keys and leaf data, the hash. */
function read(bytes: Uint8Array, piece: number, limits = snapshotLimits(bytes.length)) {
  const keys: string[] = [];
  const frontier = new MerkleFrontier();
  let header: SnapshotHeader | null = null;
  const stream = new SnapshotStream(limits, {
    header: (h) => {
      assert.equal(keys.length, 0, 'the header comes before any entry');
      header = h;
    },
    entry: (e, leafData) => {
      keys.push(e.key);
      frontier.push(leafHash(leafData));
    },
  });
  for (let at = 0; at < bytes.length; at += piece)
    stream.push(bytes.subarray(at, at + piece), at + piece >= bytes.length);
  return { ...stream.finish(), keys, root: bytesToHex(frontier.root()), header: header! };
}

describe('a snapshot read as it arrives', () => {
  it('gives the same entries, hash and state root in pieces of any size as whole', () => {
    const keys = stateEntries(state).map((e) => e.key);
    for (const piece of [1, 7, 100, 4096, file.length]) {
      const r = read(file, piece);
      assert.equal(r.hash, info.hash, `pieces of ${piece}`);
      assert.deepEqual(r.keys, keys, `pieces of ${piece}`);
      assert.equal(r.root, stateRoot(state), 'the leaf data is what the state root hashes');
      assert.deepEqual(r.header.position, {
        height: 3,
        lastBlockHash: state.lastBlockHash,
        lastTimestamp: state.lastTimestamp,
      });
      assert.equal(r.contentBytes, info.contentBytes);
    }
    assert.ok(keys.includes(`a/${manyAccountsAddress(299)}`));
  });

  it('refuses content beyond its bound while inflating, before the rest is inflated', () => {
    // A genuine header, then one entry whose value is 64 MiB of zeros: about 64 KB of gzip.
    const head = headerWith(1)
      .str('a/x')
      .u32(64 * 2 ** 20)
      .finish();
    const content = new Uint8Array(head.length + 64 * 2 ** 20);
    content.set(head);
    const zeros = gzipSync(content, { level: 9, mtime: 0 });
    const stream = new SnapshotStream(
      { maxContentBytes: 2 ** 20, maxEntries: 10 },
      { entry: () => undefined },
    );
    let pushed = 0;
    assert.throws(
      () => {
        for (; pushed < zeros.length; pushed += 1024) stream.push(zeros.subarray(pushed, pushed + 1024));
      },
      (e: unknown) => e instanceof SnapshotError && /content beyond 1048576 bytes/.test(e.message),
    );
    assert.ok(pushed < zeros.length / 4, `refused after ${pushed} of ${zeros.length} bytes of the file`);
  });

  it('refuses more entries than its bound at the header, before any entry', () => {
    let entries = 0;
    const stream = new SnapshotStream(
      { maxContentBytes: 2 ** 30, maxEntries: 5 },
      { entry: () => entries++ },
    );
    assert.throws(
      () => stream.push(file, true),
      /declares \d+ entries, more than the 5 a state of it can hold/,
    );
    assert.equal(entries, 0);
  });

  it('a header check of the caller refuses the file there', () => {
    const stream = new SnapshotStream(snapshotLimits(file.length), {
      header: () => {
        throw new SnapshotError('not the height expected');
      },
      entry: () => assert.fail('no entry after a refused header'),
    });
    assert.throws(() => stream.push(file, true), /not the height expected/);
  });

  it('refuses a gzip trailer that does not give the size of the content (a file cut or altered at its end)', () => {
    const bad = file.slice();
    bad[bad.length - 1]! ^= 0x01;
    assert.throws(() => read(bad, 4096), /its trailer does not give the size of the content/);
  });

  it('a bomb of tiny alike entries compresses to a few bytes each: why the entry bound comes from the chain, not the file', () => {
    const w = headerWith(100_000);
    for (let i = 0; i < 100_000; i++)
      w.str(`a/coin1zzzzzzzzzz${String(i).padStart(8, '0')}`).bytes(new Uint8Array(44));
    const bomb = gzipSync(w.finish(), { level: 6, mtime: 0 });
    assert.ok(bomb.length / 100_000 < 8, `${(bomb.length / 100_000).toFixed(1)} bytes of gzip an entry`);
  });
});
