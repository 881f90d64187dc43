/**
 * A shaped direction of a connection: chunks are read from `source` as soon as they come (so
 * each one's deadline is taken when it was handed over) and yielded at their deadlines, in order,
 * on the node's ticker: one timer per direction, for the chunk at the head. At most
 * HIGH_WATER_BYTES wait in the pipe; beyond, the reading waits (the sender feels back-pressure as
 * a full TCP window would give it). What was read before the source failed or ended is still
 * delivered, at its time; then the failure or the end.
 */
import type { Ticker } from '../../util/ticker.js';

export const HIGH_WATER_BYTES = 4 * 1024 * 1024;

interface Queued<T> {
  readonly chunk: T;
  readonly at: number;
  readonly bytes: number;
}

/** `deadline(bytes)`: when a chunk of that size, handed over now, is to be delivered (ms, the ticker's clock). */
export async function* shapedPipe<T extends { byteLength: number }>(
  source: AsyncIterable<T>,
  deadline: (bytes: number) => number,
  ticker: Ticker,
  timerKey: string,
): AsyncGenerator<T> {
  const queue: Queued<T>[] = [];
  let queuedBytes = 0;
  let ended = false;
  let failure: { error: unknown } | null = null;
  let stopped = false;
  let wake: (() => void) | null = null;
  let drained: (() => void) | null = null;
  const wakeUp = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  void (async () => {
    try {
      for await (const chunk of source) {
        queue.push({ chunk, at: deadline(chunk.byteLength), bytes: chunk.byteLength });
        queuedBytes += chunk.byteLength;
        wakeUp();
        while (queuedBytes > HIGH_WATER_BYTES && !stopped) await new Promise<void>((r) => (drained = r));
        if (stopped) break;
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      wakeUp();
    }
  })();
  try {
    for (;;) {
      const head = queue[0];
      if (head !== undefined) {
        const wait = head.at - ticker.now();
        if (wait > 0) {
          await new Promise<void>((r) => ticker.schedule(timerKey, wait, r));
          continue;
        }
        queue.shift();
        queuedBytes -= head.bytes;
        const d = drained as (() => void) | null;
        drained = null;
        d?.();
        yield head.chunk;
        continue;
      }
      if (failure !== null) throw (failure as { error: unknown }).error;
      if (ended) return;
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    stopped = true;
    ticker.cancel(timerKey);
    const d = drained as (() => void) | null;
    d?.();
  }
}
