/**
 * Archives made by hand for the reader's tests: a valid small one, and the same with one thing
 * wrong (a version, a hash, a path, an entry type), so each refusal is shown on its own.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';

export interface CraftEntry {
  readonly name: string;
  readonly body?: Buffer;
  readonly type?: 'file' | 'symlink' | 'link' | 'character-device' | 'directory';
  readonly linkname?: string;
}

/** A tar.gz of the entries in order (no checks: the point is to make bad ones). */
export async function craftArchive(file: string, entries: readonly CraftEntry[]): Promise<void> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((r) => pack.on('end', () => r()));
  for (const e of entries) {
    const type = e.type ?? 'file';
    await new Promise<void>((resolve, reject) =>
      pack.entry(
        {
          name: e.name,
          type,
          ...(e.linkname === undefined ? {} : { linkname: e.linkname }),
          ...(type === 'character-device' ? { devmajor: 1, devminor: 3 } : {}),
        },
        type === 'file' ? (e.body ?? Buffer.alloc(0)) : undefined,
        (err) => (err ? reject(err) : resolve()),
      ),
    );
  }
  pack.finalize();
  await ended;
  await writeFile(file, gzipSync(Buffer.concat(chunks)));
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The files of a minimal archive (not a devnet that runs: the reader checks the container only). */
export function sampleFiles(): { name: string; body: Buffer }[] {
  return [
    {
      name: 'devnet/devnet.json',
      body: Buffer.from('{"version":1,"input":{"genesisTime":1,"manifest":{}},"added":[]}\n'),
    },
    { name: 'devnet/accounts.json', body: Buffer.from('[]\n') },
    { name: 'nodes/validator-0/genesis.json', body: Buffer.from('{}\n') },
  ];
}

/** A manifest (version 1 unless changed) listing the files. */
export function manifestOf(
  files: readonly { name: string; body: Buffer }[],
  change: (m: Record<string, unknown>) => void = () => undefined,
): CraftEntry {
  const m: Record<string, unknown> = {
    format: 'chain-devnet-archive',
    version: 1,
    node_version: '0.1.0',
    created_at: '2026-01-01T00:00:00.000Z',
    runtime: 'process',
    heights: { 'validator-0': 1 },
    files: files.map((f) => ({ path: f.name, size: f.body.length, sha256: sha256(f.body) })),
  };
  change(m);
  return { name: 'manifest.json', body: Buffer.from(JSON.stringify(m)) };
}

/**
 * A valid archive holding the sample files and one more of `size` zero bytes, written as a
 * stream (neither the archive nor that file is ever whole in memory). Returns the big file's path.
 */
export async function craftLargeArchive(file: string, size: number): Promise<string> {
  const big = 'nodes/validator-0/data/big.ldb';
  const chunk = Buffer.alloc(1024 * 1024);
  const hash = createHash('sha256');
  for (let left = size; left > 0; left -= chunk.length)
    hash.update(chunk.subarray(0, Math.min(left, chunk.length)));
  const files = sampleFiles();
  const manifest = manifestOf(files, (m) => {
    (m.files as unknown[]).push({ path: big, size, sha256: hash.digest('hex') });
  });
  const pack = tarStream.pack();
  const written = pipeline(pack, createGzip({ level: 1 }), createWriteStream(file));
  const add = (name: string, body: Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name }, body, (e) => (e ? reject(e) : resolve())));
  await add(manifest.name, manifest.body!);
  for (const f of files) await add(f.name, f.body);
  const entry = pack.entry({ name: big, size });
  for (let left = size; left > 0; left -= chunk.length) {
    if (!entry.write(chunk.subarray(0, Math.min(left, chunk.length))))
      await new Promise((r) => entry.once('drain', r));
  }
  entry.end();
  pack.finalize();
  await written;
  return big;
}

/** An archive's manifest and every file it lists, in memory (for small archives made by the tests). */
export async function unpack(
  file: string,
): Promise<{ manifest: Record<string, unknown>; files: Map<string, Buffer> }> {
  const files = new Map<string, Buffer>();
  const extract = tarStream.extract();
  extract.on('entry', (h, body, next) => {
    const chunks: Buffer[] = [];
    body.on('data', (c: Buffer) => chunks.push(c));
    body.on('end', () => {
      files.set(h.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(createReadStream(file), createGunzip(), extract);
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, unknown>;
  files.delete('manifest.json');
  return { manifest, files };
}

/** Writes `files` as an archive whose manifest is `base` with the files listed anew (sizes, hashes). */
export async function repack(
  file: string,
  files: ReadonlyMap<string, Buffer>,
  base: Record<string, unknown>,
): Promise<void> {
  const list = [...files].map(([name, body]) => ({ name, body }));
  const manifest = manifestOf(list, (m) => Object.assign(m, { ...base, files: m.files }));
  await craftArchive(file, [manifest, ...list]);
}
