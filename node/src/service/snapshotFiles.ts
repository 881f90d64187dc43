/**
 * Where a node's snapshot files live: a folder on disk (<home>/snapshots), or memory (the
 * simulation, node/src/sim/, where a file write would be I/O whose completion order no seed
 * decides). A write is whole or absent: on disk through a temporary name and a rename, so a crash
 * never leaves half a snapshot under its real name.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SnapshotFiles {
  /** The names of the files there (none when the folder does not exist yet). */
  list(): Promise<string[]>;
  write(name: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes; null when there is none. */
  read(name: string): Promise<Uint8Array | null>;
  remove(name: string): Promise<void>;
}

export function diskSnapshotFiles(dir: string): SnapshotFiles {
  return {
    list: () => readdir(dir).catch(() => [] as string[]),
    async write(name, bytes) {
      await mkdir(dir, { recursive: true });
      const target = join(dir, name);
      await writeFile(`${target}.tmp`, bytes);
      await rename(`${target}.tmp`, target);
    },
    read: async (name) => {
      const file = await readFile(join(dir, name)).catch(() => null);
      return file === null ? null : new Uint8Array(file);
    },
    remove: (name) => rm(join(dir, name), { force: true }),
  };
}

export function memorySnapshotFiles(): SnapshotFiles {
  const files = new Map<string, Uint8Array>();
  return {
    list: async () => [...files.keys()],
    write: async (name, bytes) => {
      files.set(name, bytes);
    },
    read: async (name) => files.get(name) ?? null,
    remove: async (name) => {
      files.delete(name);
    },
  };
}
