/** Docker's log streams (containers and services) as plain bytes. */
import type { Writable } from 'node:stream';
import type Docker from 'dockerode';

/** Docker's multiplexed log format (8-byte frame headers) to plain bytes. */
export function demux(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  while (i + 8 <= buf.length) {
    const size = buf.readUInt32BE(i + 4);
    parts.push(buf.subarray(i + 8, i + 8 + size));
    i += 8 + size;
  }
  return Buffer.concat(parts);
}

/** Copies a followed log stream to `out` until it ends or `signal` aborts. */
export async function followLogs(
  modem: Docker['modem'],
  stream: NodeJS.ReadableStream & { destroy(): void },
  out: Writable,
  signal: AbortSignal | undefined,
): Promise<void> {
  modem.demuxStream(stream, out, out);
  await new Promise<void>((resolve) => {
    stream.on('end', resolve);
    signal?.addEventListener('abort', () => {
      stream.destroy();
      resolve();
    });
  });
}
