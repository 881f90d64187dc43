/**
 * The devnet archive (`devnet save`, `devnet up --from`): a gzip-compressed tar whose first entry
 * is manifest.json, then every file of the devnet it lists (docs/PROTOCOL.md, "Archive format").
 * This file holds what writer and reader share: the version, the manifest's shape, and which
 * paths an archive may hold.
 */
import { createRequire } from 'node:module';
import { DevnetError } from '../base/errors.js';
import { isName } from '../base/names.js';

/** The version of the node package this devnet runs (what a saved archive records). */
export const NODE_VERSION: string = (
  createRequire(import.meta.url)('@chain-devnet/node/package.json') as { version: string }
).version;

export const ARCHIVE_FORMAT = 'chain-devnet-archive';
/** The version this code writes and reads. */
export const ARCHIVE_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';

export interface ArchiveFile {
  readonly path: string;
  readonly size: number;
  /** SHA-256 of the file's bytes, lowercase hex. */
  readonly sha256: string;
}

export interface ArchiveManifest {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly version: typeof ARCHIVE_VERSION;
  /** The chain-node package version of the devnet that wrote it. */
  readonly node_version: string;
  readonly created_at: string;
  /** The runtime the devnet ran on when saved. */
  readonly runtime: string;
  /** Each node's last final height in the archive (null: a node with no store yet). */
  readonly heights: Readonly<Record<string, number | null>>;
  /**
   * Each node's version when saved (checkout, git:COMMIT, path:DIR, image:NAME; devnet/README.md,
   * "Rehearsing an upgrade"), for people and tools: a restore takes them from devnet/devnet.json.
   * Absent in archives written before versions.
   */
  readonly versions?: Readonly<Record<string, string>>;
  /** Every other entry of the archive, in archive order. */
  readonly files: readonly ArchiveFile[];
}

export function archiveError(file: string, what: string): DevnetError {
  return new DevnetError('BAD_ARCHIVE', `${file}: ${what}; nothing was started`);
}

/**
 * Files an archive may list. A node's home holds a few dozen (keys, priv-validator files, level's
 * tables and logs, ten snapshots): 4 validators at height 3,038 are 105 files
 * (docs/BENCHMARKS.md); a node with a store of a GiB (level's 2 MiB tables) about 550, so 64 nodes of 300 MiB each stay below this. Each
 * entry costs a tar header, a file made and a hash: 100,000 of them kept a restore busy for
 * minutes.
 */
export const MAX_ARCHIVE_FILES = 20_000;
/** The network conditions in force when saved (runtime/netConditions.ts); absent in older archives and where none were set. */
export const NET_FILE = 'devnet/net.json';
export const DEVNET_FILES: ReadonlySet<string> = new Set([
  'devnet/devnet.json',
  'devnet/accounts.json',
  NET_FILE,
]);

/**
 * What a node's and a service's home may hold in an archive: only the files their programs read
 * (docs/PROTOCOL.md, "Archive format"), so that nothing else an archive carries is ever written
 * into a home: no file a program would find there by accident, none a person would run.
 */
const NODE_FILES = new Set([
  'genesis.json',
  'validator_key.json',
  'p2p_key',
  'priv_validator_state.json',
  'priv_validator_locked_block.json',
  'priv_validator_proposal.json',
  // The chain control (chain-time offset, clock skew, hold): state of the chain's time.
  'chain_control.json',
  // The consensus record (--record-consensus): `devnet replay` reads it from an archive.
  'consensus-record.jsonl',
  'consensus-record.1.jsonl',
]);
/** The folders whose files are a program's own store (level's files, whatever their names). */
const NODE_STORES = new Set(['data']);
const SERVICE_FILES = new Set(['key.json']);
const SERVICE_STORES = new Set(['data']);
const SNAPSHOT_FILE = /^[0-9]{1,16}\.snapshot\.gz$/;

/** Whether `rest` (a path inside a node's or service's home) is one of the files it may hold. */
function homeFile(kind: 'nodes' | 'services', rest: readonly string[]): boolean {
  const [first, ...more] = rest;
  if (first === undefined) return false;
  const files = kind === 'nodes' ? NODE_FILES : SERVICE_FILES;
  const stores = kind === 'nodes' ? NODE_STORES : SERVICE_STORES;
  if (more.length === 0) return files.has(first);
  if (stores.has(first)) return true;
  return kind === 'nodes' && first === 'snapshots' && more.length === 1 && SNAPSHOT_FILE.test(more[0]!);
}

/**
 * Null when `path` may be in an archive, else why not. Only devnet/devnet.json,
 * devnet/accounts.json, devnet/net.json, under nodes/<name>/ and services/<name>/ the files their homes hold
 * (homeFile), and timeline/<name>.log (a log of the timeline when saved); no absolute path, no `.` or `..` segment, no backslash, no empty segment.
 */
export function pathProblem(path: string): string | null {
  if (path.startsWith('/')) return 'an absolute path';
  if (path.includes('\\') || path.includes('\0')) return 'a backslash or NUL in the path';
  const parts = path.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return 'a path with an empty, . or .. segment';
  if (DEVNET_FILES.has(path)) return null;
  const [kind, name, ...rest] = parts;
  // The timeline when saved: each log as it was (a node's, a service's, the devnet's events).
  if (
    kind === 'timeline' &&
    parts.length === 2 &&
    /^[a-z0-9-]{1,64}\.log$/.test(name ?? '') &&
    isName(name!.slice(0, -4))
  )
    return null;
  if ((kind === 'nodes' || kind === 'services') && isName(name ?? '')) {
    if (homeFile(kind, rest)) return null;
    return `not a file a ${kind === 'nodes' ? 'node' : 'service'}'s home holds (docs/PROTOCOL.md, "Archive format")`;
  }
  return 'a path outside devnet/, nodes/<name>/, services/<name>/ and timeline/<name>.log';
}

/** Checks the manifest's shape and version; names both versions when they differ. */
export function checkManifest(file: string, raw: unknown): ArchiveManifest {
  if (typeof raw !== 'object' || raw === null) throw archiveError(file, 'manifest.json is not an object');
  const m = raw as Record<string, unknown>;
  // Version 0 (never released) named the field format_version.
  const version = m.version ?? m.format_version;
  if (m.format !== undefined && m.format !== ARCHIVE_FORMAT)
    throw archiveError(file, `format "${String(m.format)}" is not a devnet archive (${ARCHIVE_FORMAT})`);
  if (version !== ARCHIVE_VERSION)
    throw archiveError(
      file,
      `archive format version ${String(version)}: this devnet (node ${NODE_VERSION}) reads version ${ARCHIVE_VERSION} only; restore it with the devnet that wrote it`,
    );
  if (m.format !== ARCHIVE_FORMAT) throw archiveError(file, 'manifest.json has no format field');
  if (typeof m.node_version !== 'string') throw archiveError(file, 'manifest.json has no node_version');
  if (typeof m.heights !== 'object' || m.heights === null)
    throw archiveError(file, 'manifest.json has no heights');
  if (!Array.isArray(m.files)) throw archiveError(file, 'manifest.json has no files list');
  if (m.files.length > MAX_ARCHIVE_FILES)
    throw archiveError(
      file,
      `manifest.json lists ${m.files.length} files, more than the ${MAX_ARCHIVE_FILES} an archive may hold`,
    );
  const listed = new Set<string>();
  for (const f of m.files as unknown[]) {
    const x = f as Partial<ArchiveFile>;
    if (
      typeof x.path !== 'string' ||
      !Number.isSafeInteger(x.size) ||
      (x.size as number) < 0 ||
      typeof x.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(x.sha256)
    )
      throw archiveError(file, `manifest.json lists a malformed file entry ${JSON.stringify(f)}`);
    const bad = pathProblem(x.path);
    if (bad !== null) throw archiveError(file, `manifest.json lists ${x.path}: ${bad}`);
    // Each path once: with two entries the later one would win, and a reader could not say which it checked.
    if (listed.has(x.path)) throw archiveError(file, `manifest.json lists ${x.path} twice`);
    listed.add(x.path);
  }
  return m as unknown as ArchiveManifest;
}
