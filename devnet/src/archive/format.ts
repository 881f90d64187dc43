/**
 * The devnet archive (`devnet save`, `devnet up --from`): a gzip-compressed tar whose first entry
 * is manifest.json, then every file of the devnet it lists (docs/PROTOCOL.md, "Archive format").
 * This file holds what writer and reader share: the version, the manifest's shape, and which
 * paths an archive may hold.
 */
import { createRequire } from 'node:module';
import { DevnetError } from '../errors.js';

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

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const DEVNET_FILES = new Set(['devnet/devnet.json', 'devnet/accounts.json']);

/**
 * Null when `path` may be in an archive, else why not. Only devnet/devnet.json,
 * devnet/accounts.json, nodes/<name>/… and services/<name>/…; no absolute path, no `.` or `..`
 * segment, no backslash, no empty segment.
 */
export function pathProblem(path: string): string | null {
  if (path.startsWith('/')) return 'an absolute path';
  if (path.includes('\\') || path.includes('\0')) return 'a backslash or NUL in the path';
  const parts = path.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return 'a path with an empty, . or .. segment';
  if (DEVNET_FILES.has(path)) return null;
  if ((parts[0] === 'nodes' || parts[0] === 'services') && parts.length >= 3 && NAME.test(parts[1]!))
    return null;
  return 'a path outside devnet/, nodes/<name>/ and services/<name>/';
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
  for (const f of m.files as unknown[]) {
    const x = f as Partial<ArchiveFile>;
    if (
      typeof x.path !== 'string' ||
      typeof x.size !== 'number' ||
      typeof x.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(x.sha256)
    )
      throw archiveError(file, `manifest.json lists a malformed file entry ${JSON.stringify(f)}`);
    const bad = pathProblem(x.path);
    if (bad !== null) throw archiveError(file, `manifest.json lists ${x.path}: ${bad}`);
  }
  return m as unknown as ArchiveManifest;
}
