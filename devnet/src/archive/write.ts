/**
 * Writes a devnet archive: manifest.json first, then each file, in a tar stream (ustar with pax
 * headers for long names, tar-stream) through gzip (node:zlib), to a temporary file renamed into
 * place, so that a failed save never leaves half an archive under the asked name. Files are
 * streamed twice (hashed for the manifest, then packed), never held whole.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tarStream from 'tar-stream';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveManifest,
  MANIFEST_ENTRY,
  NODE_VERSION,
} from './format.js';

/** A file to archive: its path in the archive and where its bytes are on this machine. */
export interface SourceFile {
  readonly path: string;
  readonly from: string;
}

export async function writeArchive(
  file: string,
  sources: readonly SourceFile[],
  about: Pick<ArchiveManifest, 'runtime' | 'heights' | 'versions'>,
): Promise<ArchiveManifest> {
  const digests: { size: number; sha256: string }[] = [];
  for (const s of sources) digests.push(await digestOf(s.from));
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    node_version: NODE_VERSION,
    created_at: new Date().toISOString(),
    runtime: about.runtime,
    heights: about.heights,
    ...(about.versions === undefined ? {} : { versions: about.versions }),
    files: sources.map((s, i) => ({ path: s.path, ...digests[i]! })),
  };
  const pack = tarStream.pack();
  const tmp = `${file}.partial`;
  const written = pipeline(pack, createGzip(), createWriteStream(tmp, { mode: 0o600 }));
  const header = (name: string, size: number) =>
    ({ name, size, mode: 0o600, mtime: new Date(0), type: 'file' }) as const;
  try {
    const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await new Promise<void>((resolve, reject) =>
      pack.entry(header(MANIFEST_ENTRY, body.length), body, (e) => (e ? reject(e) : resolve())),
    );
    // tar-stream fails an entry whose bytes are not its header's size (a file changed meanwhile).
    for (const [i, s] of sources.entries())
      await pipeline(createReadStream(s.from), pack.entry(header(s.path, digests[i]!.size)));
    pack.finalize();
    await written;
    await rename(tmp, file);
  } catch (e) {
    pack.destroy();
    await written.catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  return manifest;
}

async function digestOf(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}
