/**
 * Writes a devnet archive: manifest.json first, then each file, in a tar stream (ustar with pax
 * headers for long names, tar-stream) through gzip (node:zlib), to a temporary file renamed into
 * place, so that a failed save never leaves half an archive under the asked name.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
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
  const contents = await Promise.all(sources.map((s) => readFile(s.from)));
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    node_version: NODE_VERSION,
    created_at: new Date().toISOString(),
    runtime: about.runtime,
    heights: about.heights,
    ...(about.versions === undefined ? {} : { versions: about.versions }),
    files: sources.map((s, i) => ({
      path: s.path,
      size: contents[i]!.length,
      sha256: createHash('sha256').update(contents[i]!).digest('hex'),
    })),
  };
  const pack = tarStream.pack();
  const tmp = `${file}.partial`;
  const written = pipeline(pack, createGzip(), createWriteStream(tmp, { mode: 0o600 }));
  const entry = (name: string, body: Buffer) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name, mode: 0o600, mtime: new Date(0), type: 'file' }, body, (e) =>
        e ? reject(e) : resolve(),
      ),
    );
  try {
    await entry(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    for (const [i, s] of sources.entries()) await entry(s.path, contents[i]!);
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
