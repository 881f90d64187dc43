/**
 * A fault injection's file in a node's home (blocked_peers.json, net_conditions.json,
 * disk_faults.json), as every one of them is read: followed with fs.watchFile (libuv stats it off
 * the JavaScript thread and wakes the node only on a change: each node reading its file twice a
 * second itself, with no file there, made and threw an ENOENT error each time, 3-4 ms of CPU a
 * second for 21 nodes against 0.3; docs/BENCHMARKS.md, "The transport's floor"); and, in the home
 * of a node started without --fault-injection, noted once and ignored, so that a file left
 * behind never silently changes a node started by hand.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';

/** How often the file's metadata is looked at. */
const POLL_MS = 500;

/**
 * Follows `path`: `apply` gets its text (null: no file) at start and after every change of it,
 * one at a time in the order of the changes (the last one read is what is in force), never twice
 * the same text in a row. `ready` settles once the file as it is at start has been applied.
 */
export function followFaultFile(
  path: string,
  apply: (text: string | null) => void | Promise<void>,
  logger: Logger,
): { readonly ready: Promise<void>; readonly stop: () => void } {
  let last: string | null | undefined;
  let reading: Promise<void> = Promise.resolve();
  const reread = () => {
    reading = reading
      .then(() => readFile(path, 'utf8').catch(() => null))
      .then(async (text) => {
        if (text === last) return;
        last = text;
        await apply(text);
      })
      .catch((e: unknown) => logger.error(`${basename(path)}: update failed`, { error: e as Error }));
  };
  watchFile(path, { interval: POLL_MS, persistent: false }, reread);
  reread();
  return { ready: reading, stop: () => unwatchFile(path, reread) };
}

export async function noteIgnoredFaultFile(path: string, logger: Logger): Promise<void> {
  const present = await access(path).then(
    () => true,
    () => false,
  );
  if (present)
    logger.info(
      `${basename(path)} is present but fault injection is off: ignored (--fault-injection honours it)`,
      {
        path,
      },
    );
}
