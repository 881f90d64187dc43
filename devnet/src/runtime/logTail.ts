/** `devnet logs` for log files: the last N lines, then (with follow) what is appended, until aborted. */
import { open, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { LogOptions } from './runtime.js';

async function readRange(path: string, start: number, end: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(end - start);
    await fh.read(buf, 0, buf.length, start);
    return buf;
  } finally {
    await fh.close();
  }
}

/** Byte offset where the last `lines` lines of the file begin. */
async function tailOffset(path: string, size: number, lines: number): Promise<number> {
  const chunk = 64 * 1024;
  let end = size;
  let seen = 0;
  while (end > 0) {
    const start = Math.max(0, end - chunk);
    const buf = await readRange(path, start, end);
    for (let i = buf.length - 1; i >= 0; i--) {
      // A final newline ends the last line rather than starting an empty one.
      if (buf[i] === 0x0a && !(start + i === size - 1)) {
        seen++;
        if (seen === lines) return start + i + 1;
      }
    }
    end = start;
  }
  return 0;
}

export async function tailFile(path: string, o: LogOptions, out: Writable): Promise<void> {
  const size = await stat(path).then(
    (s) => s.size,
    () => 0,
  );
  let offset = o.tail === null ? 0 : o.tail === 0 ? size : await tailOffset(path, size, o.tail);
  if (offset < size) out.write(await readRange(path, offset, size));
  offset = size;
  if (!o.follow) return;
  while (!o.signal?.aborted) {
    await new Promise((r) => setTimeout(r, 200));
    const now = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    if (now < offset) offset = 0; // truncated or replaced
    if (now > offset) {
      out.write(await readRange(path, offset, now));
      offset = now;
    }
  }
}
