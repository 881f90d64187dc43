/**
 * How much a restore may write into a home, checked against the archive's manifest before any of
 * its files is written. The container's own bounds (archive/read.ts: 4 GiB a file, 64 GiB in all)
 * are what the format allows; a restore writes what a devnet holds. A devnet's stores are level's
 * compressed tables and gzip snapshots: its archive inflates about 2 times (4 validators at
 * height 600: 1.4 MB for 3.1 MB of files), so an archive that would write more than 32 times its
 * own size, past 256 MiB, is no devnet's (a 1.2 MiB archive wrote 1 GiB, 826 times its size) and
 * is refused unless the person restoring it says how much they allow (--max-restore-size). And
 * never more than the disk has free.
 */
import { stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatBytes } from '@chain-devnet/kit/values';
import { archiveError } from './format.js';
import type { Archive } from './read.js';

/** What an archive's files may inflate to, against its own size, unless allowed more. */
export const MAX_EXPANSION = 32;
/** Below this, any archive may be restored (small devnets' files inflate more, and matter little). */
export const EXPANSION_FLOOR_BYTES = 256 * 1024 ** 2;
/** Left free on the disk after a restore. */
const DISK_MARGIN_BYTES = 64 * 1024 ** 2;

/** The bytes the archive's files take, once written. */
export const listedBytes = (a: Archive): number => a.manifest.files.reduce((n, f) => n + f.size, 0);

/** The deepest folder of `p` that exists (the home is not made yet). */
async function existingFolder(p: string): Promise<string> {
  for (let dir = p; ; dir = dirname(dir)) {
    const s = await stat(dir).catch(() => null);
    if (s?.isDirectory() || dir === dirname(dir)) return dir;
  }
}

/** Refuses (BAD_ARCHIVE, nothing written) an archive that would write more than allowed into `home`. */
export async function checkWriteBound(a: Archive, home: string, allowedBytes?: number): Promise<void> {
  const total = listedBytes(a);
  const own = (await stat(a.file)).size;
  const allowed = allowedBytes ?? Math.max(EXPANSION_FLOOR_BYTES, MAX_EXPANSION * own);
  if (total > allowed)
    throw archiveError(
      a.file,
      allowedBytes === undefined
        ? `it would write ${formatBytes(total)} into the home, ${Math.round(total / Math.max(own, 1))} times its own ${formatBytes(own)}: a devnet's archive inflates about 2 times, and a restore writes at most ${MAX_EXPANSION} times (or ${formatBytes(EXPANSION_FLOOR_BYTES)}) unless allowed more: pass --max-restore-size ${formatBytes(total).replace(' ', '')} if you trust it`
        : `it would write ${formatBytes(total)} into the home, more than the ${formatBytes(allowed)} --max-restore-size allows`,
    );
  const folder = await existingFolder(home);
  const fs = await statfs(folder);
  const free = fs.bavail * fs.bsize;
  if (total + DISK_MARGIN_BYTES > free)
    throw archiveError(
      a.file,
      `it would write ${formatBytes(total)} into the home, and ${folder}'s disk has ${formatBytes(free)} free (${formatBytes(DISK_MARGIN_BYTES)} kept)`,
    );
}
