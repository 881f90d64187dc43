/**
 * Reads a devnet archive and checks all of it before anything is written (docs/PROTOCOL.md,
 * "Archive format", what a reader must check): gzip and tar intact to their end, manifest.json
 * first and of a known version, only regular files on allowed relative paths, each listed once
 * with its size and SHA-256, none missing and none extra. An archive is held in memory (a
 * 4-validator devnet of a few thousand blocks is a few MB; docs/BENCHMARKS.md).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tarStream from 'tar-stream';
import { type ArchiveManifest, archiveError, checkManifest, MANIFEST_ENTRY, pathProblem } from './format.js';

export interface Archive {
  readonly manifest: ArchiveManifest;
  /** Every file by its archive path, checked against the manifest. */
  readonly files: ReadonlyMap<string, Buffer>;
}

async function entries(file: string): Promise<{ name: string; type: string; body: Buffer }[]> {
  const out: { name: string; type: string; body: Buffer }[] = [];
  const extract = tarStream.extract();
  extract.on('entry', (h, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      out.push({ name: h.name, type: h.type ?? 'file', body: Buffer.concat(chunks) });
      next();
    });
    stream.resume();
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), extract);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') throw archiveError(file, 'no such file');
    throw archiveError(file, `truncated or corrupt (${err.message})`);
  }
  return out;
}

export async function readArchive(file: string): Promise<Archive> {
  const all = await entries(file);
  const first = all[0];
  if (first === undefined) throw archiveError(file, 'empty archive');
  if (first.name !== MANIFEST_ENTRY)
    throw archiveError(file, `the first entry is ${first.name}, not ${MANIFEST_ENTRY}`);
  let raw: unknown;
  try {
    raw = JSON.parse(first.body.toString('utf8'));
  } catch {
    throw archiveError(file, `${MANIFEST_ENTRY} is not JSON`);
  }
  const manifest = checkManifest(file, raw);
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  const files = new Map<string, Buffer>();
  for (const e of all.slice(1)) {
    if (e.type === 'directory') continue;
    if (e.type !== 'file')
      throw archiveError(file, `${e.name} is a ${e.type}: only regular files are allowed`);
    const bad = pathProblem(e.name);
    if (bad !== null) throw archiveError(file, `${e.name}: ${bad}`);
    const want = listed.get(e.name);
    if (want === undefined)
      throw archiveError(file, `${e.name} is not listed in ${MANIFEST_ENTRY} (an extra file)`);
    if (files.has(e.name)) throw archiveError(file, `${e.name} appears twice`);
    const sha = createHash('sha256').update(e.body).digest('hex');
    if (e.body.length !== want.size || sha !== want.sha256)
      throw archiveError(
        file,
        `${e.name} does not match its size and SHA-256 in ${MANIFEST_ENTRY} (tampered)`,
      );
    files.set(e.name, e.body);
  }
  const missing = manifest.files.filter((f) => !files.has(f.path)).map((f) => f.path);
  if (missing.length > 0)
    throw archiveError(
      file,
      `missing ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}`,
    );
  for (const need of ['devnet/devnet.json', 'devnet/accounts.json'])
    if (!files.has(need)) throw archiveError(file, `missing ${need}`);
  return { manifest, files };
}

/** Writes the files under `prefix/` into `dir` (checked paths; each is resolved inside `dir` once more). */
export async function extractUnder(a: Archive, prefix: string, dir: string): Promise<void> {
  const root = resolve(dir);
  for (const [path, body] of a.files) {
    if (!path.startsWith(`${prefix}/`)) continue;
    const target = resolve(root, path.slice(prefix.length + 1));
    if (relative(root, target).startsWith('..')) throw new Error(`${path} leaves ${root}`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, body, { mode: 0o600 });
  }
}
