/**
 * What a node printed before `devnet upgrade` (or the auto-upgrade supervisor) replaced it, kept
 * where `devnet logs` shows it: the process runtime's log file goes on across runs by itself (the
 * next run appends), the docker runtime's container is made again from the new image and its
 * engine log goes with it, and so do a swarm service's tasks once it is scaled to 0: their last
 * lines are copied into the node's log file first (logs/<name>.log, shown before the current
 * run's). Either way the log then says how the run ended and on
 * which version the node came back, so that a halt's 'UPGRADE NEEDED' line and its exit code
 * stay reachable by an operator or a supervisor after the swap.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { tailFile } from './logTail.js';

/** How many of a replaced container's last lines are kept (a node's log around a halt fits many times). */
export const EARLIER_RUN_LINES = 5_000;

/** The line the devnet writes into a node's log where a run ended and the next, on `version`, begins. */
export function replacedLine(name: string, exitCode: number | null, version: string): string {
  const ended = exitCode === null ? 'stopped' : `exited with code ${exitCode}`;
  return `devnet: ${name} ${ended}; started again on ${version}\n`;
}

/** Appends `lines` (the run's last lines, or nothing) and the replaced line to the node's log file. */
export async function keepEarlierRun(
  logFile: string,
  lines: Uint8Array,
  name: string,
  exitCode: number | null,
  version: string,
): Promise<void> {
  await mkdir(dirname(logFile), { recursive: true });
  const ends = lines.length === 0 || lines[lines.length - 1] === 0x0a;
  await appendFile(
    logFile,
    Buffer.concat([lines, Buffer.from(`${ends ? '' : '\n'}${replacedLine(name, exitCode, version)}`)]),
  );
}

/**
 * `devnet logs`' first part on a runtime whose current run's log is the engine's: of the kept
 * lines (the node's log file), as many as `tail` leaves once the current run's `current` (its
 * last `tail` lines, which the caller writes or follows next) are counted; all without a tail.
 */
export async function writeEarlier(
  logFile: string,
  current: Uint8Array,
  tail: number | null,
  out: Writable,
): Promise<void> {
  const shown = lineCount(current);
  if (tail === null || shown < tail)
    await tailFile(logFile, { follow: false, tail: tail === null ? null : tail - shown }, out);
}

/** The number of lines in `buf` (a last line without its newline counts). */
function lineCount(buf: Uint8Array): number {
  let n = 0;
  for (const b of buf) if (b === 0x0a) n++;
  return buf.length > 0 && buf[buf.length - 1] !== 0x0a ? n + 1 : n;
}
