/**
 * Reads a devnet archive as a stream, and checks all of it before anything is written
 * (docs/PROTOCOL.md, "Archive format", what a reader must check): gzip and tar intact to their
 * end, manifest.json first and of a known version, only regular files on allowed relative paths,
 * each listed once with its size and SHA-256, none missing and none extra, each within the size
 * bounds and the whole no larger than the manifest says. Only manifest.json and the devnet's own
 * two files are held in memory; a node's store is hashed as it streams past (readArchive), then
 * streamed again into the home and checked once more (extractArchive): memory does not grow
 * with the archive.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tarStream from 'tar-stream';
import { DevnetError } from '../base/errors.js';
import {
  type ArchiveFile,
  type ArchiveManifest,
  archiveError,
  checkManifest,
  DEVNET_FILES,
  MANIFEST_ENTRY,
  NET_FILE,
  pathProblem,
} from './format.js';

/** How large an archive's parts may be (bytes, uncompressed). */
export interface ArchiveLimits {
  /** One file of the archive. */
  readonly entryBytes: number;
  /** All its files together. */
  readonly totalBytes: number;
}

const GIB = 1024 ** 3;
/** A 4-validator devnet of a few thousand blocks is a few MB (docs/BENCHMARKS.md): far inside. */
export const ARCHIVE_LIMITS: ArchiveLimits = { entryBytes: 4 * GIB, totalBytes: 64 * GIB };
/** manifest.json and devnet/*.json are read into memory: each at most this. */
const HELD_BYTES = 16 * 1024 ** 2;
/** The tar's own bytes per entry at most (its header, a pax header for a long name, padding). */
const TAR_OVERHEAD = 8 * 1024;
const HELD = DEVNET_FILES;

export interface Archive {
  readonly file: string;
  readonly manifest: ArchiveManifest;
  /** devnet/devnet.json, devnet/accounts.json and devnet/net.json (when there), checked. */
  readonly devnetFiles: ReadonlyMap<string, Buffer>;
  readonly limits: ArchiveLimits;
}

/** Counts the decompressed bytes and fails past `limit` (raised once the manifest is read). */
class Budget extends Transform {
  seen = 0;
  constructor(
    private readonly file: string,
    public limit: number,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit)
      done(archiveError(this.file, `more data than its manifest lists (past ${this.limit} bytes)`));
    else done(null, chunk);
  }
}

/** Hashes and counts an entry's bytes as they pass, failing as soon as there are more than listed. */
class Digest extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  constructor(
    private readonly file: string,
    private readonly want: ArchiveFile,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.want.size) {
      done(tampered(this.file, this.want.path));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

const tampered = (file: string, path: string) =>
  archiveError(file, `${path} does not match its size and SHA-256 in ${MANIFEST_ENTRY} (tampered)`);

/** A sink keeping at most `max` bytes (more fails). */
function holder(file: string, what: string, max: number): { sink: Writable; body: () => Buffer } {
  const chunks: Buffer[] = [];
  let n = 0;
  const sink = new Writable({
    write(c: Buffer, _e, done) {
      n += c.length;
      if (n > max) return done(archiveError(file, `${what} is larger than ${max} bytes`));
      chunks.push(c);
      done();
    },
  });
  return { sink, body: () => Buffer.concat(chunks) };
}

const discard = () =>
  new Writable({
    write(_c, _e, done) {
      done();
    },
  });

/** Where a checked file goes: a sink (a file in the home, memory, nowhere). */
type SinkFor = (f: ArchiveFile) => Promise<Writable>;

/** The first entry: manifest.json, read, checked, and its sizes against the bounds (the second pass: the same as the first's). */
async function readManifest(
  file: string,
  h: tarStream.Headers,
  body: Readable,
  limits: ArchiveLimits,
  expect: ArchiveManifest | null,
): Promise<ArchiveManifest> {
  if (h.name !== MANIFEST_ENTRY)
    throw archiveError(file, `the first entry is ${h.name}, not ${MANIFEST_ENTRY}`);
  const held = holder(file, MANIFEST_ENTRY, HELD_BYTES);
  await pipeline(body, held.sink);
  let raw: unknown;
  try {
    raw = JSON.parse(held.body().toString('utf8'));
  } catch {
    throw archiveError(file, `${MANIFEST_ENTRY} is not JSON`);
  }
  const manifest = checkManifest(file, raw);
  if (expect !== null && JSON.stringify(manifest) !== JSON.stringify(expect))
    throw archiveError(file, `${MANIFEST_ENTRY} changed while the archive was read`);
  for (const f of manifest.files)
    if (f.size > limits.entryBytes)
      throw archiveError(
        file,
        `${f.path} is ${f.size} bytes, more than the ${limits.entryBytes} a file may be`,
      );
  const total = manifest.files.reduce((n, f) => n + f.size, 0);
  if (total > limits.totalBytes)
    throw archiveError(
      file,
      `its files are ${total} bytes, more than the ${limits.totalBytes} an archive may hold`,
    );
  return manifest;
}

/** The listed files, each once, as they pass: an entry's type, path, listing, size and hash checked. */
class EntryChecks {
  readonly seen = new Set<string>();
  private readonly listed: ReadonlyMap<string, ArchiveFile>;
  constructor(
    private readonly file: string,
    manifest: ArchiveManifest,
  ) {
    this.listed = new Map(manifest.files.map((f) => [f.path, f]));
  }

  /** The listed file this entry is, or null for a directory (skipped); throws for anything else. */
  expected(h: tarStream.Headers): ArchiveFile | null {
    const { file } = this;
    const type = h.type ?? 'file';
    if (type === 'directory') return null;
    if (type !== 'file') throw archiveError(file, `${h.name} is a ${type}: only regular files are allowed`);
    const bad = pathProblem(h.name);
    if (bad !== null) throw archiveError(file, `${h.name}: ${bad}`);
    const want = this.listed.get(h.name);
    if (want === undefined)
      throw archiveError(file, `${h.name} is not listed in ${MANIFEST_ENTRY} (an extra file)`);
    if (this.seen.has(h.name)) throw archiveError(file, `${h.name} appears twice`);
    this.seen.add(h.name);
    if (h.size !== want.size) throw tampered(file, h.name);
    return want;
  }

  /** Throws naming the listed files no entry brought. */
  allSeen(manifest: ArchiveManifest): void {
    const missing = manifest.files.filter((f) => !this.seen.has(f.path)).map((f) => f.path);
    if (missing.length > 0)
      throw archiveError(
        this.file,
        `missing ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}`,
      );
  }
}

/**
 * One pass over the archive: every check; each listed file's bytes into `sinkFor`. Returns the
 * manifest. `expect`: the manifest of a first pass (the second must read the same).
 */
async function walk(
  file: string,
  limits: ArchiveLimits,
  sinkFor: SinkFor,
  expect: ArchiveManifest | null,
): Promise<ArchiveManifest> {
  let manifest: ArchiveManifest | null = null;
  let checks: EntryChecks | null = null;
  const budget = new Budget(file, HELD_BYTES + TAR_OVERHEAD);
  const extract = tarStream.extract();
  const onEntry = async (h: tarStream.Headers, body: Readable): Promise<void> => {
    if (manifest === null || checks === null) {
      manifest = await readManifest(file, h, body, limits, expect);
      checks = new EntryChecks(file, manifest);
      const total = manifest.files.reduce((n, f) => n + f.size, 0);
      budget.limit = budget.seen + total + (manifest.files.length + 1) * TAR_OVERHEAD;
      return;
    }
    const want = checks.expected(h);
    if (want === null) return void body.resume();
    const digest = new Digest(file, want);
    await pipeline(body, digest, await sinkFor(want));
    if (digest.bytes !== want.size || digest.hash.digest('hex') !== want.sha256) throw tampered(file, h.name);
  };
  extract.on('entry', (h, body, next) => {
    onEntry(h, body).then(
      () => next(),
      (e: unknown) => {
        body.resume();
        next(e as Error);
      },
    );
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), budget, extract);
  } catch (e) {
    if (e instanceof DevnetError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') throw archiveError(file, 'no such file');
    throw archiveError(file, `truncated or corrupt (${err.message})`);
  }
  if (manifest === null || checks === null) throw archiveError(file, 'empty archive');
  (checks as EntryChecks).allSeen(manifest);
  return manifest;
}

/** Reads and checks the whole archive (nothing written); holds only its manifest and devnet/ files. */
export async function readArchive(file: string, limits: ArchiveLimits = ARCHIVE_LIMITS): Promise<Archive> {
  const devnetFiles = new Map<string, Buffer>();
  const manifest = await walk(
    file,
    limits,
    async (f) => {
      if (!HELD.has(f.path)) return discard();
      const held = holder(file, f.path, HELD_BYTES);
      held.sink.on('finish', () => devnetFiles.set(f.path, held.body()));
      return held.sink;
    },
    null,
  );
  // devnet/net.json is there only where conditions were ever set (and not in older archives).
  for (const need of HELD)
    if (need !== NET_FILE && !devnetFiles.has(need)) throw archiveError(file, `missing ${need}`);
  return { file, manifest, devnetFiles, limits };
}

/**
 * One file of a checked archive (its listed size at most: the archive's bound for a file), read
 * in another pass with every check.
 */
export async function readArchiveFile(a: Archive, path: string): Promise<Buffer> {
  let body: Buffer | null = null;
  await walk(
    a.file,
    a.limits,
    async (f) => {
      if (f.path !== path) return discard();
      const held = holder(a.file, f.path, f.size);
      held.sink.on('finish', () => {
        body = held.body();
      });
      return held.sink;
    },
    a.manifest,
  );
  if (body === null) throw archiveError(a.file, `missing ${path}`);
  return body;
}

/**
 * Writes the files under each `prefix/` into its folder (checked paths, each resolved inside its
 * folder once more), reading the archive a second time with every check of the first: a file
 * that changed since readArchive fails the restore.
 */
export async function extractArchive(a: Archive, targets: Readonly<Record<string, string>>): Promise<void> {
  // Each folder made once: an archive of many small files spent most of its time in mkdir.
  const made = new Set<string>();
  await walk(
    a.file,
    a.limits,
    async (f) => {
      const prefix = Object.keys(targets).find((p) => f.path.startsWith(`${p}/`));
      if (prefix === undefined) return discard();
      const root = resolve(targets[prefix]!);
      const target = resolve(root, f.path.slice(prefix.length + 1));
      if (relative(root, target).startsWith('..')) throw new Error(`${f.path} leaves ${root}`);
      const folder = dirname(target);
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      return createWriteStream(target, { mode: 0o600 });
    },
    a.manifest,
  );
}
