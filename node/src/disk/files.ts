/**
 * Files replaced durably (the priv-validator's: home/privValidator.ts), through the few
 * synchronous system calls that make a replace durable: the new text to a temporary file, fsync,
 * rename over the old one, fsync of the folder; after a crash at any moment the file holds the
 * old text or the new, never a torn one. The calls go to the disk (REAL_FILES), or, with
 * --fault-injection, through the disk fault layer (faultyFiles), where with lose_unsynced a
 * write stays in memory until its file is fsynced and a rename until its folder is, so that a
 * replace missing either fsync is lost to a SIGKILL, as on a lazy page cache. (Those files are
 * read only at start, so no read is served from what is held.)
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DiskLayer } from './layer.js';

/** The system calls of a durable replace. */
export interface SyncFiles {
  /** Opens `path` for writing (created or truncated) with `mode`, or a folder to fsync it (`dir`). */
  open(path: string, how: 'write' | 'dir', mode?: number): number;
  write(fd: number, text: string): void;
  fsync(fd: number): void;
  close(fd: number): void;
  rename(from: string, to: string): void;
}

export const REAL_FILES: SyncFiles = {
  open: (path, how, mode) => openSync(path, how === 'write' ? 'w' : 'r', mode),
  write: (fd, text) => {
    writeSync(fd, text);
  },
  fsync: fsyncSync,
  close: closeSync,
  rename: renameSync,
};

/** Replaces `path` with `text` durably: temporary file, fsync, rename, fsync of the folder. */
export function replaceDurably(path: string, text: string, files: SyncFiles = REAL_FILES): void {
  const temporary = `${path}.tmp`;
  const fd = files.open(temporary, 'write', 0o600);
  try {
    files.write(fd, text);
    files.fsync(fd);
  } finally {
    files.close(fd);
  }
  files.rename(temporary, path);
  const folder = files.open(dirname(path), 'dir');
  try {
    files.fsync(folder);
  } finally {
    files.close(folder);
  }
}

/** `real` through the fault layer: refusals and delays on every write and fsync; lose_unsynced holds writes and renames. */
export function faultyFiles(layer: DiskLayer, real: SyncFiles = REAL_FILES): SyncFiles {
  const folders = new Map<number, string>();
  const heldText = new Map<number, string>();
  /** Renames not yet made durable, by the folder whose fsync makes them so. */
  const heldRenames = new Map<string, [string, string][]>();
  return {
    open: (path, how, mode) => {
      const fd = real.open(path, how, mode);
      if (how === 'dir') folders.set(fd, path);
      return fd;
    },
    write: (fd, text) => {
      layer.writeSync();
      if (layer.holdsUnsynced) heldText.set(fd, (heldText.get(fd) ?? '') + text);
      else real.write(fd, text);
    },
    fsync: (fd) => {
      layer.fsyncSync();
      const text = heldText.get(fd);
      if (text !== undefined) real.write(fd, text);
      heldText.delete(fd);
      const folder = folders.get(fd);
      if (folder !== undefined) {
        for (const [from, to] of heldRenames.get(folder) ?? []) real.rename(from, to);
        heldRenames.delete(folder);
      }
      real.fsync(fd);
    },
    close: (fd) => {
      heldText.delete(fd);
      folders.delete(fd);
      real.close(fd);
    },
    rename: (from, to) => {
      if (!layer.holdsUnsynced) return real.rename(from, to);
      const folder = dirname(to);
      heldRenames.set(folder, [...(heldRenames.get(folder) ?? []), [from, to]]);
    },
  };
}
