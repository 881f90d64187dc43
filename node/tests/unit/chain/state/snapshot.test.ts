/**
 * Snapshots (docs/PROTOCOL.md, "Snapshots"): content, hash and gzip file, and everything a
 * reader must refuse. gzip is checked against Node's zlib, an implementation fflate shares nothing with.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync as zlibGunzip, gzipSync as zlibGzip } from 'node:zlib';
import { Reader, Writer } from '../../../../src/chain/codec/encoding.js';
import {
  type ChainState,
  coins,
  decodeSnapshot,
  encodeSnapshot,
  isSnapshotHeight,
  MAX_SNAPSHOT_CONTENT_BYTES,
  SNAPSHOT_DOMAIN,
  SnapshotError,
  type StateEntry,
  snapshotContent,
  stateEntries,
  stateRoot,
} from '../../../../src/chain/index.js';
import { sha256 } from '../../../../src/crypto/hash.js';
import { bytesToHex } from '../../../../src/crypto/hex.js';
import { key, TestChain, tx } from '../../../fixtures.js';

const FOUR = ['val-0', 'val-1', 'val-2', 'val-3'];

/**
 * A chain whose state holds every kind of entry: accounts with reward history, validators,
 * delegations, unbonding entries, globals and params. Built the same way every time.
 */
function busyChain(height = 12): TestChain {
  const chain = new TestChain(
    { validators: FOUR, accounts: { alice: coins(10_000), bob: coins(5) } },
    [],
    ['alice'],
  );
  const val1 = key('val-1').validator;
  chain.produce([
    tx(chain.state, 'alice', 'TRANSFER', { to: key('carol').account, amount: coins(7) }),
    tx(chain.state, 'bob', 'DELEGATE', { to: val1, amount: coins(2) }),
  ]);
  chain.produce([tx(chain.state, 'alice', 'DELEGATE', { to: val1, amount: coins(300) })]);
  chain.produce([tx(chain.state, 'alice', 'UNDELEGATE', { to: val1, amount: coins(100) })]);
  chain.produce([tx(chain.state, 'alice', 'STAKE', { amount: coins(150), payload: { name: 'alice-node' } })]);
  chain.produceUntil(height - 1);
  chain.produce([tx(chain.state, 'alice', 'UNDELEGATE', { to: val1, amount: coins(50) })]);
  return chain;
}

function expectSnapshotError(fn: () => unknown, message?: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof SnapshotError, `expected a SnapshotError, got ${String(e)}`);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const hashOf = (content: Uint8Array) => bytesToHex(sha256(content));
const gzip = (content: Uint8Array) => new Uint8Array(zlibGzip(content));

/** Snapshot content written by hand, with parts replaced to make it wrong. */
function contentWith(
  state: ChainState,
  o: { domain?: string; chainId?: string; entries?: readonly StateEntry[]; count?: number } = {},
): Uint8Array {
  const entries = o.entries ?? stateEntries(state);
  const w = new Writer()
    .str(o.domain ?? SNAPSHOT_DOMAIN)
    .str(o.chainId ?? state.params.chainId)
    .u64(state.height)
    .rawHex(state.lastBlockHash, 32)
    .u64(state.lastTimestamp)
    .u32(o.count ?? entries.length);
  for (const e of entries) w.str(e.key).bytes(e.value);
  return w.finish();
}

describe('snapshots', () => {
  const chain = busyChain();
  const state = chain.state;
  const kinds = new Set(stateEntries(state).map((e) => e.key.split('/')[0]));

  it('are built from a state with every kind of entry', () => {
    assert.deepEqual([...kinds].sort(), ['a', 'd', 'g', 'p', 'u', 'v']);
    assert.ok([...state.accounts.values()].some((a) => a.rewardHistory.size > 0));
  });

  it('round-trip: decoding gives back the same state, root and info', () => {
    for (const s of [chain.results[0]!.state, chain.results[3]!.state, state]) {
      const { file, info } = encodeSnapshot(s);
      const decoded = decodeSnapshot(file, info.hash);
      assert.deepEqual(decoded.state, s);
      assert.equal(stateRoot(decoded.state), stateRoot(s));
      assert.deepEqual(decoded.info, info);
    }
  });

  it('round-trip the genesis state (height 0)', () => {
    const genesis = new TestChain({ validators: FOUR }).state;
    const { file, info } = encodeSnapshot(genesis);
    assert.equal(info.height, 0);
    assert.deepEqual(decodeSnapshot(file, info.hash).state, genesis);
  });

  it('start with the chain position, then the state entries in key order', () => {
    const content = snapshotContent(state);
    const r = new Reader(content);
    assert.equal(r.str(), 'chain-snapshot/v1');
    assert.equal(r.str(), 'chain-devnet-1');
    assert.equal(r.u64(), state.height);
    assert.equal(r.rawHex(32), state.lastBlockHash);
    assert.equal(r.u64(), state.lastTimestamp);
    const entries = stateEntries(state);
    assert.equal(r.u32(), entries.length);
    for (const e of entries) {
      assert.equal(r.str(), e.key);
      assert.deepEqual(r.bytes(), e.value);
    }
    r.end();
    const keys = entries.map((e) => e.key);
    assert.deepEqual(keys, [...keys].sort());
  });

  it('hash = SHA-256 of the uncompressed content', () => {
    const { file, info } = encodeSnapshot(state);
    const content = snapshotContent(state);
    assert.equal(info.hash, hashOf(content));
    assert.equal(info.hash, hashOf(new Uint8Array(zlibGunzip(file))));
    assert.equal(info.contentBytes, content.length);
    assert.match(info.hash, /^[0-9a-f]{64}$/);
  });

  it('are equal, hash and file, on two independently built chains at the same height', () => {
    const other = busyChain();
    assert.notEqual(other.state, state);
    const a = encodeSnapshot(state);
    const b = encodeSnapshot(other.state);
    assert.equal(b.info.hash, a.info.hash);
    assert.deepEqual(b.file, a.file);
    const earlier = encodeSnapshot(chain.results[10]!.state);
    assert.notEqual(earlier.info.hash, a.info.hash);
  });

  it('are deterministic gzip files: the same bytes twice, mtime 0, no file name', () => {
    const a = encodeSnapshot(state).file;
    const b = encodeSnapshot(state).file;
    assert.deepEqual(a, b);
    assert.deepEqual([...a.subarray(0, 3)], [0x1f, 0x8b, 0x08], 'gzip magic, deflate');
    assert.equal(a[3], 0, 'FLG: no name, comment, extra or header CRC');
    assert.deepEqual([...a.subarray(4, 8)], [0, 0, 0, 0], 'MTIME 0');
    const n = a.length;
    const isize = (a[n - 4]! | (a[n - 3]! << 8) | (a[n - 2]! << 16) | (a[n - 1]! << 24)) >>> 0;
    assert.equal(isize, snapshotContent(state).length, 'ISIZE trailer');
    assert.deepEqual(new Uint8Array(zlibGunzip(a)), snapshotContent(state));
  });

  it('are read from any valid gzip of the content, not only our own compressor', () => {
    const content = snapshotContent(state);
    const decoded = decodeSnapshot(gzip(content), hashOf(content));
    assert.equal(stateRoot(decoded.state), stateRoot(state));
  });

  it('report height, timestamp, epoch, validator and account counts', () => {
    const genesis = new TestChain({ validators: FOUR }).state;
    const g = encodeSnapshot(genesis).info;
    assert.deepEqual(
      { height: g.height, timestamp: g.timestamp, epoch: g.epoch, validators: g.validatorCount },
      { height: 0, timestamp: genesis.lastTimestamp, epoch: 0, validators: 4 },
    );
    assert.equal(g.accountCount, 1, 'alice only');
    // epoch_length 10: epoch = floor(height / 10).
    for (const [height, epoch] of [
      [9, 0],
      [10, 1],
      [11, 1],
      [12, 1],
    ] as const) {
      const s = chain.results[height - 1]!.state;
      const info = encodeSnapshot(s).info;
      assert.equal(info.height, height);
      assert.equal(info.epoch, epoch, `epoch at height ${height}`);
      assert.equal(info.timestamp, s.lastTimestamp);
    }
    const info = encodeSnapshot(state).info;
    assert.equal(info.validatorCount, 5, 'four genesis validators and alice');
    assert.equal(info.validatorCount, state.validators.size);
    assert.equal(info.accountCount, state.accounts.size);
    assert.ok(info.accountCount >= 3, 'alice, bob, carol and the reward addresses');
  });

  describe('decoding refuses', () => {
    const { file, info } = encodeSnapshot(state);

    it('a wrong expected hash', () => {
      expectSnapshotError(() => decodeSnapshot(file, '0'.repeat(64)), /does not match the expected/);
      const earlier = encodeSnapshot(chain.results[0]!.state).info.hash;
      expectSnapshotError(() => decodeSnapshot(file, earlier), /does not match/);
      expectSnapshotError(() => decodeSnapshot(file, info.hash.toUpperCase()));
    });

    it('a flipped byte in the compressed data', () => {
      for (const i of [10, Math.floor(file.length / 2), file.length - 9]) {
        const bad = file.slice();
        bad[i]! ^= 0xff;
        expectSnapshotError(() => decodeSnapshot(bad, info.hash));
      }
    });

    it('never gives a different state for a flipped bit: it refuses, or the content is unchanged', () => {
      // Some flips leave the inflated content as it was (gzip's MTIME/XFL/OS and CRC fields, which
      // fflate does not check, or code lengths of unused deflate symbols): the content hash is
      // what makes a snapshot trustworthy, not the gzip framing.
      let refused = 0;
      let tries = 0;
      for (let i = 0; i < file.length; i++) {
        for (const bit of [0x01, 0x10, 0x80]) {
          const bad = file.slice();
          bad[i]! ^= bit;
          tries++;
          let decoded: ChainState;
          try {
            decoded = decodeSnapshot(bad, info.hash).state;
          } catch (e) {
            assert.ok(e instanceof SnapshotError, `byte ${i} bit ${bit}: ${String(e)}`);
            refused++;
            continue;
          }
          assert.deepEqual(decoded, state, `byte ${i} bit ${bit} changed the state`);
        }
      }
      assert.ok(refused > tries * 0.9, `${refused} of ${tries} flips refused`);
    });

    it('a file that is not gzip', () => {
      const content = snapshotContent(state);
      expectSnapshotError(() => decodeSnapshot(content, hashOf(content)), /not a gzip file/);
      const text = new TextEncoder().encode('this is not a gzip file, only text');
      expectSnapshotError(() => decodeSnapshot(text, info.hash), /not a gzip file/);
      expectSnapshotError(() => decodeSnapshot(new Uint8Array(0), info.hash), /not a gzip file/);
      expectSnapshotError(() => decodeSnapshot(file.subarray(0, 17), info.hash), /not a gzip file/);
    });

    it('a truncated file', () => {
      for (const cut of [1, 8, 9, 20, Math.floor(file.length / 2)])
        expectSnapshotError(() => decodeSnapshot(file.subarray(0, file.length - cut), info.hash));
    });

    it('truncated content, even with its own hash', () => {
      const content = snapshotContent(state);
      for (let n = 0; n < content.length; n += 13) {
        const cut = content.subarray(0, n);
        expectSnapshotError(() => decodeSnapshot(gzip(cut), hashOf(cut)), /malformed|domain/);
      }
      const lastByteMissing = content.subarray(0, content.length - 1);
      expectSnapshotError(
        () => decodeSnapshot(gzip(lastByteMissing), hashOf(lastByteMissing)),
        /malformed snapshot: truncated/,
      );
    });

    it('trailing bytes after the entries', () => {
      const content = snapshotContent(state);
      const longer = new Uint8Array([...content, 0]);
      expectSnapshotError(() => decodeSnapshot(gzip(longer), hashOf(longer)), /trailing/);
    });

    it('a wrong domain tag, a chain id that disagrees with the params, an entry count too low', () => {
      const cases: [Uint8Array, RegExp][] = [
        [contentWith(state, { domain: 'chain-snapshot/v2' }), /domain/],
        [contentWith(state, { chainId: 'chain-devnet-2' }), /chain-devnet-2/],
        [contentWith(state, { count: stateEntries(state).length - 1 }), /trailing/],
      ];
      for (const [content, message] of cases)
        expectSnapshotError(() => decodeSnapshot(gzip(content), hashOf(content)), message);
      const same = contentWith(state);
      assert.deepEqual(same, snapshotContent(state), 'contentWith writes the real layout');
    });

    it('entries out of order, repeated, unknown or missing', () => {
      const entries = stateEntries(state);
      const swapped = [entries[1]!, entries[0]!, ...entries.slice(2)];
      const repeated = [entries[0]!, ...entries];
      const unknown = [...entries, { key: 'z/what', value: new Uint8Array(0) }];
      const noParams = entries.filter((e) => e.key !== 'p/');
      const badValue = entries.map((e) => (e.key === 'g/' ? { key: e.key, value: e.value.subarray(1) } : e));
      for (const [list, message] of [
        [swapped, /out of order/],
        [repeated, /out of order/],
        [unknown, /unknown entry key z\/what/],
        [noParams, /no g\/ or p\/ entry/],
        [badValue, /malformed/],
      ] as const) {
        const content = contentWith(state, { entries: list });
        expectSnapshotError(() => decodeSnapshot(gzip(content), hashOf(content)), message);
      }
    });

    it('a file whose gzip trailer declares more than the size limit', () => {
      const big = file.slice();
      const n = big.length;
      const declared = MAX_SNAPSHOT_CONTENT_BYTES + 1;
      big[n - 4] = declared & 0xff;
      big[n - 3] = (declared >>> 8) & 0xff;
      big[n - 2] = (declared >>> 16) & 0xff;
      big[n - 1] = (declared >>> 24) & 0xff;
      expectSnapshotError(() => decodeSnapshot(big, info.hash), /too large/);
      assert.equal(MAX_SNAPSHOT_CONTENT_BYTES, 2 ** 30);
    });
  });
});

describe('isSnapshotHeight', () => {
  it('is true after every snapshot_interval-th block and every epoch boundary, never at 0', () => {
    const devnet = { snapshotInterval: 1000, epochLength: 100 };
    const rows: [number, boolean][] = [
      [0, false],
      [1, false],
      [99, false],
      [100, true],
      [150, false],
      [200, true],
      [999, false],
      [1000, true],
      [1001, false],
      [2000, true],
    ];
    for (const [height, expected] of rows)
      assert.equal(isSnapshotHeight(height, devnet), expected, `height ${height}`);
  });

  it('takes either multiple when interval and epoch length do not divide each other', () => {
    const p = { snapshotInterval: 7, epochLength: 5 };
    const hits = Array.from({ length: 36 }, (_, h) => h).filter((h) => isSnapshotHeight(h, p));
    assert.deepEqual(hits, [5, 7, 10, 14, 15, 20, 21, 25, 28, 30, 35]);
  });
});
