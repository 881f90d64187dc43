/**
 * The canonical binary encoding behind every hash and signature (docs/PROTOCOL.md, "Encoding").
 * Big-endian fixed-width integers, length-prefixed strings and byte strings, a presence byte
 * for optional values. One value has exactly one encoding, so equal values hash equally.
 */
import { bytesToHex, hexToBytes } from '../../crypto/hex.js';
import { MAX_U256 } from '../amounts.js';

const utf8Encoder = new TextEncoder();
const LONE_SURROGATE = /\p{Surrogate}/u;

/** True when `s` has no lone surrogate, so that it has exactly one UTF-8 encoding. */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export class Writer {
  private buf = new Uint8Array(256);
  private len = 0;

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  u8(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xff) throw new RangeError(`u8 out of range: ${v}`);
    this.reserve(1);
    this.buf[this.len++] = v;
    return this;
  }

  u32(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`u32 out of range: ${v}`);
    this.reserve(4);
    new DataView(this.buf.buffer).setUint32(this.len, v);
    this.len += 4;
    return this;
  }

  /** Unsigned 64-bit; callers hold these as safe integers (< 2^53). */
  u64(v: number): this {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`u64 out of range: ${v}`);
    this.reserve(8);
    new DataView(this.buf.buffer).setBigUint64(this.len, BigInt(v));
    this.len += 8;
    return this;
  }

  /** Unsigned 256-bit wei amount, 32 bytes big-endian. */
  u256(v: bigint): this {
    if (v < 0n || v > MAX_U256) throw new RangeError(`u256 out of range: ${v}`);
    this.reserve(32);
    let x = v;
    for (let i = 31; i >= 0; i--) {
      this.buf[this.len + i] = Number(x & 0xffn);
      x >>= 8n;
    }
    this.len += 32;
    return this;
  }

  /** Raw bytes with no length prefix (fixed-size fields: keys, hashes, signatures). */
  raw(bytes: Uint8Array): this {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  rawHex(hex: string, byteLength: number): this {
    return this.raw(hexToBytes(hex, byteLength));
  }

  /** u32 length, then the bytes. */
  bytes(bytes: Uint8Array): this {
    return this.u32(bytes.length).raw(bytes);
  }

  /**
   * u32 byte length, then UTF-8. A string with a lone surrogate has no UTF-8 form (an encoder
   * would put U+FFFD in its place, giving two strings one encoding), so it is refused.
   */
  str(s: string): this {
    if (!isWellFormed(s)) throw new RangeError('string is not well-formed Unicode (lone surrogate)');
    return this.bytes(utf8Encoder.encode(s));
  }

  /** 0x00 when absent; 0x01 then the value when present. */
  opt<T>(value: T | undefined | null, write: (w: this, v: T) => void): this {
    if (value === undefined || value === null) return this.u8(0);
    this.u8(1);
    write(this, value);
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

export class Reader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length)
      throw new DecodeError(`truncated: need ${n} bytes at offset ${this.pos}`);
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  u64(): number {
    this.need(8);
    const v = this.view.getBigUint64(this.pos);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw new DecodeError(`u64 above 2^53-1 at offset ${this.pos - 8}`);
    return Number(v);
  }

  u256(): bigint {
    this.need(32);
    let v = 0n;
    for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(this.buf[this.pos + i]!);
    this.pos += 32;
    return v;
  }

  raw(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  rawHex(n: number): string {
    return bytesToHex(this.raw(n));
  }

  bytes(): Uint8Array {
    return this.raw(this.u32());
  }

  str(): string {
    try {
      return utf8Decoder.decode(this.bytes());
    } catch (e) {
      if (e instanceof DecodeError) throw e;
      throw new DecodeError(`invalid UTF-8 before offset ${this.pos}`);
    }
  }

  opt<T>(read: (r: this) => T): T | undefined {
    const flag = this.u8();
    if (flag === 0) return undefined;
    if (flag === 1) return read(this);
    throw new DecodeError(`presence byte must be 0 or 1, got ${flag}`);
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }

  end(): void {
    if (!this.done) throw new DecodeError(`${this.buf.length - this.pos} trailing bytes`);
  }
}
