/**
 * A snapshot's gzip file read as it arrives, a piece at a time (docs/PROTOCOL.md, "Snapshots"):
 * inflated, hashed (SHA-256 of the content) and parsed as far as the bytes so far go, so that
 * nothing of the content is ever held whole and a bad file is refused as soon as it shows: a
 * header that is not the one expected (the caller's check), more entries declared than the bound,
 * content beyond its bound (a gzip bomb), an entry that does not parse. Each entry goes to the
 * caller with its leaf data (str(key) bytes(value): its bytes in the content, which the state root
 * hashes), and the caller keeps what it needs: a state root, or a state. Pure and synchronous; the
 * caller paces the pieces (sync/state/snapshotRestore.ts yields between them).
 */
import { Gunzip } from 'fflate';
import { type Sha256Stream, sha256Stream } from '../../crypto/hash.js';
import { bytesToHex } from '../../crypto/hex.js';
import { DecodeError, Reader } from '../codec/encoding.js';
import type { StateEntry } from './entries.js';
import type { ChainPosition } from './stateBuilder.js';

export const SNAPSHOT_DOMAIN = 'chain-snapshot/v1';

/** Why a snapshot file is refused. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

/** The content's header: what comes before the entries. */
export interface SnapshotHeader {
  readonly chainId: string;
  readonly position: ChainPosition;
  readonly entryCount: number;
}

export interface SnapshotLimits {
  /** Content bytes beyond which the file is refused. */
  readonly maxContentBytes: number;
  /** The most entries the header may declare. */
  readonly maxEntries: number;
}

export interface SnapshotVisitor {
  /** The header, before any entry; throw (SnapshotError) to refuse the file there. */
  header?(h: SnapshotHeader): void;
  /** Each entry in content order, with its leaf data (its bytes in the content: str(key) bytes(value)). */
  entry(e: StateEntry, leafData: Uint8Array): void;
}

const GZIP_MAGIC = [0x1f, 0x8b];
/** No key of the state is longer (the longest, d/<validator>/<delegator>, is about 110 bytes). */
const MAX_KEY_BYTES = 1024;
/** The smallest entry: str(key) of 2 bytes ("g/") and bytes(value) of none. */
const MIN_ENTRY_BYTES = 4 + 2 + 4;

const be32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const be32le = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;

/** The last `n` bytes of `before` followed by `bytes`. */
function lastBytes(before: Uint8Array, bytes: Uint8Array, n: number): Uint8Array {
  if (bytes.length >= n) return bytes.slice(bytes.length - n);
  const joined = new Uint8Array(Math.min(n, before.length + bytes.length));
  const keep = joined.length - bytes.length;
  joined.set(before.subarray(before.length - keep));
  joined.set(bytes, keep);
  return joined;
}

export class SnapshotStream {
  private readonly gunzip: Gunzip;
  private readonly hasher: Sha256Stream = sha256Stream();
  private pending = new Uint8Array(0);
  private at = 0;
  private contentBytes = 0;
  private header: SnapshotHeader | null = null;
  private entries = 0;
  private ended = false;
  private fileBytes = 0;
  /** The file's last 8 bytes so far: gzip's trailer (CRC-32, then the content's size mod 2^32). */
  private tail: Uint8Array = new Uint8Array(0);
  /** The file's first two bytes so far. */
  private readonly magic: number[] = [];

  constructor(
    private readonly limits: SnapshotLimits,
    private readonly visit: SnapshotVisitor,
  ) {
    this.gunzip = new Gunzip((data, final) => this.inflated(data, final));
  }

  /** The next bytes of the gzip file, in order; `final` with its last ones. Throws SnapshotError. */
  push(bytes: Uint8Array, final = false): void {
    if (this.ended) throw new SnapshotError('bytes after the end of the gzip file');
    for (let i = 0; this.magic.length < 2 && i < bytes.length; i++) this.magic.push(bytes[i]!);
    if (this.magic.some((b, i) => b !== GZIP_MAGIC[i])) throw new SnapshotError('not a gzip file');
    this.fileBytes += bytes.length;
    this.tail = lastBytes(this.tail, bytes, 8);
    if (final && this.fileBytes < 18) throw new SnapshotError('not a gzip file');
    try {
      this.gunzip.push(bytes, final);
    } catch (e) {
      if (e instanceof SnapshotError) throw e;
      if (e instanceof DecodeError) throw new SnapshotError(`malformed snapshot: ${e.message}`);
      throw new SnapshotError(`corrupt gzip: ${(e as Error).message}`);
    }
    if (final && !this.ended) throw new SnapshotError('corrupt gzip: the file ends inside its stream');
  }

  /** After the final push: the content's hash and size; throws unless every declared entry was read and nothing follows. */
  finish(): { readonly hash: string; readonly contentBytes: number; readonly header: SnapshotHeader } {
    if (!this.ended) throw new SnapshotError('the file was not read to its end');
    if (be32le(this.tail, 4) !== this.contentBytes % 2 ** 32)
      throw new SnapshotError('corrupt gzip: its trailer does not give the size of the content');
    if (this.header === null) throw new SnapshotError('malformed snapshot: truncated: no whole header');
    const left = this.pending.length - this.at;
    if (this.entries !== this.header.entryCount)
      throw new SnapshotError(
        `malformed snapshot: truncated: ${this.entries} of ${this.header.entryCount} entries${left > 0 ? ', then part of one' : ''}`,
      );
    if (left > 0) throw new SnapshotError(`malformed snapshot: ${left} trailing bytes`);
    return { hash: bytesToHex(this.hasher.digest()), contentBytes: this.contentBytes, header: this.header };
  }

  private inflated(data: Uint8Array, final: boolean): void {
    this.contentBytes += data.length;
    if (this.contentBytes > this.limits.maxContentBytes)
      throw new SnapshotError(`snapshot content beyond ${this.limits.maxContentBytes} bytes: refused`);
    this.hasher.update(data);
    const rest = this.pending.length - this.at;
    const next = new Uint8Array(rest + data.length);
    next.set(this.pending.subarray(this.at));
    next.set(data, rest);
    this.pending = next;
    this.at = 0;
    if (this.header === null) this.readHeader();
    if (this.header !== null) this.readEntries();
    if (final) this.ended = true;
  }

  /** The header once its bytes are all here: the domain tag and chain id, then fixed fields. */
  private readHeader(): void {
    const b = this.pending;
    if (b.length < 4) return;
    const domainEnd = 4 + be32(b, 0);
    if (domainEnd > 64) throw new SnapshotError('not a chain snapshot (wrong domain tag)');
    if (b.length < domainEnd + 4) return;
    const chainEnd = domainEnd + 4 + be32(b, domainEnd);
    if (chainEnd > domainEnd + 4 + 256)
      throw new SnapshotError('malformed snapshot: a chain id over 256 bytes');
    const end = chainEnd + 8 + 32 + 8 + 4;
    if (b.length < end) return;
    const r = new Reader(b.subarray(0, end));
    if (r.str() !== SNAPSHOT_DOMAIN) throw new SnapshotError('not a chain snapshot (wrong domain tag)');
    const chainId = r.str();
    const position = { height: r.u64(), lastBlockHash: r.rawHex(32), lastTimestamp: r.u64() };
    const entryCount = r.u32();
    if (entryCount > this.limits.maxEntries || entryCount * MIN_ENTRY_BYTES > this.limits.maxContentBytes)
      throw new SnapshotError(
        `the snapshot declares ${entryCount} entries, more than the ${Math.min(this.limits.maxEntries, Math.floor(this.limits.maxContentBytes / MIN_ENTRY_BYTES))} a state of it can hold`,
      );
    this.header = { chainId, position, entryCount };
    this.at = end;
    this.visit.header?.(this.header);
  }

  /** Every entry whose bytes are all here. */
  private readEntries(): void {
    const b = this.pending;
    const count = this.header!.entryCount;
    while (this.entries < count && b.length - this.at >= 4) {
      const keyBytes = be32(b, this.at);
      if (keyBytes > MAX_KEY_BYTES)
        throw new SnapshotError(`malformed snapshot: an entry key of ${keyBytes} bytes`);
      const valueAt = this.at + 4 + keyBytes;
      if (b.length < valueAt + 4) return;
      const end = valueAt + 4 + be32(b, valueAt);
      if (b.length < end) return;
      const leafData = b.subarray(this.at, end);
      const r = new Reader(leafData);
      this.visit.entry({ key: r.str(), value: r.bytes() }, leafData);
      this.entries++;
      this.at = end;
    }
  }
}
