/**
 * The canonical encoding (docs/PROTOCOL.md, "Encoding") byte for byte, and RFC 6962 Merkle roots
 * recomputed by hand with @noble/hashes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_U256 } from '../../../../src/chain/amounts.js';
import { DecodeError, Reader, Writer } from '../../../../src/chain/codec/encoding.js';
import { bytesToHex, hexToBytes } from '../../../../src/crypto/hex.js';

const hexOf = (write: (w: Writer) => unknown): string => {
  const w = new Writer();
  write(w);
  return bytesToHex(w.finish());
};

const readerOf = (hex: string) => new Reader(hexToBytes(hex));

function expectDecodeError(fn: () => unknown, message?: RegExp, label = ''): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof DecodeError, `${label}: expected a DecodeError, got ${String(e)}`);
    assert.equal(e.name, 'DecodeError');
    if (message) assert.match(e.message, message, label);
    return true;
  });
}

describe('Writer and Reader: exact bytes', () => {
  it('u8: one byte', () => {
    for (const [v, hex] of [
      [0, '00'],
      [0x7f, '7f'],
      [0xff, 'ff'],
    ] as const) {
      assert.equal(
        hexOf((w) => w.u8(v)),
        hex,
      );
      assert.equal(readerOf(hex).u8(), v);
    }
  });

  it('u32: four bytes big-endian', () => {
    for (const [v, hex] of [
      [0, '00000000'],
      [1, '00000001'],
      [0x01020304, '01020304'],
      [0x80000000, '80000000'],
      [0xffffffff, 'ffffffff'],
    ] as const) {
      assert.equal(
        hexOf((w) => w.u32(v)),
        hex,
      );
      assert.equal(readerOf(hex).u32(), v);
    }
  });

  it('u64: eight bytes big-endian, up to 2^53 - 1', () => {
    for (const [v, hex] of [
      [0, '0000000000000000'],
      [1, '0000000000000001'],
      [0x0102030405, '0000000102030405'],
      [2 ** 32, '0000000100000000'],
      [1_700_000_000, '000000006553f100'],
      [Number.MAX_SAFE_INTEGER, '001fffffffffffff'],
    ] as const) {
      assert.equal(
        hexOf((w) => w.u64(v)),
        hex,
      );
      assert.equal(readerOf(hex).u64(), v);
    }
  });

  it('u256: thirty-two bytes big-endian', () => {
    const rows: [bigint, string][] = [
      [0n, '00'.repeat(32)],
      [1n, `${'00'.repeat(31)}01`],
      [0x0102n, `${'00'.repeat(30)}0102`],
      [10n ** 18n, `${'00'.repeat(24)}0de0b6b3a7640000`],
      [2n ** 255n, `80${'00'.repeat(31)}`],
      [MAX_U256, 'ff'.repeat(32)],
    ];
    for (const [v, hex] of rows) {
      assert.equal(
        hexOf((w) => w.u256(v)),
        hex,
      );
      assert.equal(readerOf(hex).u256(), v);
    }
  });

  it('str: u32 byte length, then UTF-8', () => {
    const rows: [string, string][] = [
      ['', '00000000'],
      ['abc', '00000003616263'],
      ['é', '00000002c3a9'],
      ['€', '00000003e282ac'],
      ['😀', '00000004f09f9880'],
      ['a\u0000b', '00000003610062'],
    ];
    for (const [v, hex] of rows) {
      assert.equal(
        hexOf((w) => w.str(v)),
        hex,
        JSON.stringify(v),
      );
      assert.equal(readerOf(hex).str(), v);
    }
  });

  it('bytes: u32 length, then the bytes; raw and rawHex: the bytes alone', () => {
    assert.equal(
      hexOf((w) => w.bytes(new Uint8Array(0))),
      '00000000',
    );
    assert.equal(
      hexOf((w) => w.bytes(new Uint8Array([0, 1, 0xff]))),
      '000000030001ff',
    );
    assert.deepEqual([...readerOf('000000030001ff').bytes()], [0, 1, 0xff]);
    assert.equal(
      hexOf((w) => w.raw(new Uint8Array([0xab, 0xcd]))),
      'abcd',
    );
    assert.equal(
      hexOf((w) => w.rawHex('00ff10', 3)),
      '00ff10',
    );
    assert.equal(readerOf('00ff10').rawHex(3), '00ff10');
    assert.throws(() => new Writer().rawHex('00ff', 3), TypeError);
    assert.throws(() => new Writer().rawHex('00FF', 2), TypeError);
    assert.throws(() => new Writer().rawHex('0x00', 2), TypeError);
  });

  it('opt: 0x00 when absent, 0x01 then the value when present (0 and "" are present)', () => {
    const u32 = (w: Writer, v: number) => w.u32(v);
    assert.equal(
      hexOf((w) => w.opt(undefined, u32)),
      '00',
    );
    assert.equal(
      hexOf((w) => w.opt(null, u32)),
      '00',
    );
    assert.equal(
      hexOf((w) => w.opt(0, u32)),
      '0100000000',
    );
    assert.equal(
      hexOf((w) => w.opt(7, (w2, v) => w2.u8(v))),
      '0107',
    );
    assert.equal(
      hexOf((w) => w.opt('', (w2, v) => w2.str(v))),
      '0100000000',
    );
    assert.equal(
      readerOf('00').opt((r) => r.u32()),
      undefined,
    );
    assert.equal(
      readerOf('0100000000').opt((r) => r.u32()),
      0,
    );
    expectDecodeError(
      () => readerOf('0200000000').opt((r) => r.u32()),
      /presence byte must be 0 or 1, got 2/,
    );
  });

  it('concatenates fields with nothing in between', () => {
    const hex = hexOf((w) =>
      w
        .u8(1)
        .u32(2)
        .str('x')
        .u64(3)
        .opt(undefined, (w2, v: number) => w2.u8(v)),
    );
    assert.equal(hex, `01${'00000002'}${'0000000178'}${'0000000000000003'}00`);
    const r = readerOf(hex);
    assert.deepEqual([r.u8(), r.u32(), r.str(), r.u64(), r.opt((x) => x.u8())], [1, 2, 'x', 3, undefined]);
    assert.equal(r.done, true);
    r.end();
  });

  it('grows past its first buffer without losing bytes', () => {
    const w = new Writer();
    for (let i = 0; i < 300; i++) w.u32(i * 0x00010001);
    w.u256(MAX_U256).str('x'.repeat(1000));
    const bytes = w.finish();
    assert.equal(bytes.length, 300 * 4 + 32 + 4 + 1000);
    const r = new Reader(bytes);
    for (let i = 0; i < 300; i++) assert.equal(r.u32(), i * 0x00010001);
    assert.equal(r.u256(), MAX_U256);
    assert.equal(r.str(), 'x'.repeat(1000));
    r.end();
  });

  it('finish returns a copy: writing on does not change bytes already returned', () => {
    const w = new Writer().u8(1);
    const first = w.finish();
    w.u8(2);
    assert.deepEqual([...first], [1]);
    assert.deepEqual([...w.finish()], [1, 2]);
  });

  it('reads from a view into a larger buffer at its own offset', () => {
    const buf = hexToBytes('ffff0000002a00000000000000070000');
    const r = new Reader(buf.subarray(2, 14));
    assert.equal(r.u32(), 42);
    assert.equal(r.u64(), 7);
    r.end();
  });
});

describe('Writer range errors', () => {
  it('refuses values outside each integer type, writing nothing', () => {
    const cases: [string, (w: Writer) => unknown][] = [
      ['u8 -1', (w) => w.u8(-1)],
      ['u8 256', (w) => w.u8(256)],
      ['u8 1.5', (w) => w.u8(1.5)],
      ['u8 NaN', (w) => w.u8(Number.NaN)],
      ['u32 -1', (w) => w.u32(-1)],
      ['u32 2^32', (w) => w.u32(2 ** 32)],
      ['u32 0.5', (w) => w.u32(0.5)],
      ['u64 -1', (w) => w.u64(-1)],
      ['u64 2^53', (w) => w.u64(2 ** 53)],
      ['u64 1.5', (w) => w.u64(1.5)],
      ['u64 Infinity', (w) => w.u64(Number.POSITIVE_INFINITY)],
      ['u256 -1', (w) => w.u256(-1n)],
      ['u256 2^256', (w) => w.u256(MAX_U256 + 1n)],
    ];
    for (const [name, write] of cases) {
      const w = new Writer().u8(0xaa);
      assert.throws(() => write(w), RangeError, name);
      assert.equal(bytesToHex(w.finish()), 'aa', `${name} wrote nothing`);
    }
  });

  it('gives two different strings two different encodings (or refuses one)', () => {
    // A lone surrogate is not Unicode: TextEncoder would write it as U+FFFD, the same bytes as a
    // real U+FFFD, so two different memos or validator names would share signing bytes and a hash.
    const encode = (s: string): string | null => {
      try {
        return hexOf((w) => w.str(s));
      } catch {
        return null;
      }
    };
    for (const lone of ['\uD800', '\uDFFF', 'a\uD83D', '\uDE00b']) {
      const replaced = lone.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
      assert.notEqual(
        encode(lone),
        encode(replaced),
        `${JSON.stringify(lone)} vs ${JSON.stringify(replaced)}`,
      );
    }
  });
});

describe('Reader errors', () => {
  it('throws DecodeError on truncation, for every type', () => {
    const cases: [string, string, (r: Reader) => unknown][] = [
      ['u8 of nothing', '', (r) => r.u8()],
      ['u32 of 3 bytes', '000000', (r) => r.u32()],
      ['u64 of 7 bytes', '00000000000000', (r) => r.u64()],
      ['u256 of 31 bytes', '00'.repeat(31), (r) => r.u256()],
      ['raw 5 of 4 bytes', '00000000', (r) => r.raw(5)],
      ['bytes shorter than their length', '0000000501020304', (r) => r.bytes()],
      ['bytes without a whole length', '000005', (r) => r.bytes()],
      ['str shorter than its length', '000000036162', (r) => r.str()],
      ['str of length 2^32 - 1', 'ffffffff61', (r) => r.str()],
      ['opt without its value', '01', (r) => r.opt((x) => x.u32())],
      ['opt without presence byte', '', (r) => r.opt((x) => x.u32())],
    ];
    for (const [name, hex, read] of cases) expectDecodeError(() => read(readerOf(hex)), /truncated/, name);
  });

  it('throws DecodeError on trailing bytes', () => {
    const r = readerOf('0102');
    assert.equal(r.u8(), 1);
    assert.equal(r.done, false);
    expectDecodeError(() => r.end(), /1 trailing bytes/);
    assert.equal(r.u8(), 2);
    assert.equal(r.done, true);
    r.end();
    expectDecodeError(() => readerOf('00000000ff').end(), /5 trailing bytes/);
  });

  it('throws DecodeError on a u64 above 2^53 - 1', () => {
    expectDecodeError(() => readerOf('0020000000000000').u64(), /above 2\^53-1/);
    expectDecodeError(() => readerOf('ffffffffffffffff').u64(), /above 2\^53-1/);
  });

  it('throws DecodeError on invalid UTF-8', () => {
    for (const hex of ['00000001ff', '00000002c0af', '00000003eda080', '00000001c3', '0000000180'])
      expectDecodeError(() => readerOf(hex).str(), /invalid UTF-8/, hex);
  });
});

describe('Writer and Reader: round trips (property)', () => {
  type Field =
    | { kind: 'u8'; v: number }
    | { kind: 'u32'; v: number }
    | { kind: 'u64'; v: number }
    | { kind: 'u256'; v: bigint }
    | { kind: 'str'; v: string }
    | { kind: 'bytes'; v: Uint8Array }
    | { kind: 'opt'; v: number | undefined };

  const field: fc.Arbitrary<Field> = fc.oneof(
    fc.integer({ min: 0, max: 0xff }).map((v): Field => ({ kind: 'u8', v })),
    fc.integer({ min: 0, max: 0xffffffff }).map((v): Field => ({ kind: 'u32', v })),
    fc.maxSafeNat().map((v): Field => ({ kind: 'u64', v })),
    fc.bigInt({ min: 0n, max: MAX_U256 }).map((v): Field => ({ kind: 'u256', v })),
    fc.string({ unit: 'binary', maxLength: 40 }).map((v): Field => ({ kind: 'str', v })),
    fc.uint8Array({ maxLength: 40 }).map((v): Field => ({ kind: 'bytes', v })),
    fc
      .option(fc.integer({ min: 0, max: 0xffffffff }), { nil: undefined })
      .map((v): Field => ({ kind: 'opt', v })),
  );

  function write(w: Writer, f: Field): void {
    switch (f.kind) {
      case 'u8':
        w.u8(f.v);
        return;
      case 'u32':
        w.u32(f.v);
        return;
      case 'u64':
        w.u64(f.v);
        return;
      case 'u256':
        w.u256(f.v);
        return;
      case 'str':
        w.str(f.v);
        return;
      case 'bytes':
        w.bytes(f.v);
        return;
      case 'opt':
        w.opt(f.v, (w2, v) => w2.u32(v));
        return;
    }
  }

  function read(r: Reader, kind: Field['kind']): Field['v'] {
    switch (kind) {
      case 'u8':
        return r.u8();
      case 'u32':
        return r.u32();
      case 'u64':
        return r.u64();
      case 'u256':
        return r.u256();
      case 'str':
        return r.str();
      case 'bytes':
        return r.bytes();
      case 'opt':
        return r.opt((x) => x.u32());
    }
  }

  it('reads back every sequence of fields it wrote, and nothing more', () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 30 }), (fields) => {
        const w = new Writer();
        for (const f of fields) write(w, f);
        const bytes = w.finish();
        const r = new Reader(bytes);
        for (const f of fields) assert.deepEqual(read(r, f.kind), f.v);
        r.end();
        // Any shorter prefix is refused somewhere along the way.
        if (bytes.length > 0) {
          const cut = new Reader(bytes.subarray(0, bytes.length - 1));
          expectDecodeError(() => {
            for (const f of fields) read(cut, f.kind);
            cut.end();
          });
        }
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});
