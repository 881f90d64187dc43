/**
 * A shaped direction of a connection. While its link is clear and nothing waits in it, a chunk is
 * handed straight from the source to the reader (its next() is the source's: no promise, queue or
 * timer of its own, so a devnet's nodes, which all run with fault injection, pay a condition check
 * a chunk for it; docs/BENCHMARKS.md, "The shaping layer's own cost"). Once a condition is set,
 * chunks are read from the source as soon as they come (so each one's deadline is taken when it
 * was handed over) and given to the reader at their deadlines, in order, on the node's ticker: one
 * timer per direction, for the chunk at the head. At most HIGH_WATER_BYTES wait; beyond, the
 * reading waits (the sender feels back-pressure as a full TCP window would give it). When the
 * link is clear again, the reading stops after the chunk that found it so, and once what waits is
 * delivered the chunks pass straight through again. One next() of the source at a time, always.
 * What was read before the source failed or ended is still delivered, at its time; then the
 * failure or the end.
 */
import type { Ticker } from '../../util/ticker.js';

export const HIGH_WATER_BYTES = 4 * 1024 * 1024;

interface Queued<T> {
  readonly chunk: T;
  readonly at: number;
  readonly bytes: number;
}

/**
 * `source` shaped: `deadline(bytes)` says when a chunk of that size, handed over now, is to be
 * delivered (ms on the ticker's clock); `clear()` whether the link has no condition now.
 */
export function shapedPipe<T extends { byteLength: number }>(
  source: AsyncIterable<T>,
  deadline: (bytes: number) => number,
  clear: () => boolean,
  ticker: Ticker,
  timerKey: string,
): AsyncIterableIterator<T> {
  return new ShapedPipe(source[Symbol.asyncIterator](), deadline, clear, ticker, timerKey);
}

class ShapedPipe<T extends { byteLength: number }> implements AsyncIterableIterator<T> {
  private readonly queue: Queued<T>[] = [];
  private queuedBytes = 0;
  private pumping = false;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  private drained: (() => void) | null = null;

  constructor(
    private readonly it: AsyncIterator<T>,
    private readonly deadline: (bytes: number) => number,
    private readonly clear: () => boolean,
    private readonly ticker: Ticker,
    private readonly timerKey: string,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    return this.passes() ? this.it.next() : this.shapedNext();
  }

  async return(value?: unknown): Promise<IteratorResult<T>> {
    this.stopped = true;
    this.ticker.cancel(this.timerKey);
    this.release();
    if (!this.pumping) await this.it.return?.(value);
    return { done: true, value: undefined };
  }

  /** Whether the next chunk goes straight from the source: a clear link, nothing waiting or read ahead. */
  private passes(): boolean {
    return this.queue.length === 0 && !this.pumping && !this.ended && this.failure === null && this.clear();
  }

  private wakeUp(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private release(): void {
    const d = this.drained;
    this.drained = null;
    d?.();
  }

  /** The next chunk at its deadline (or the source's end or failure once every chunk read is given). */
  private async shapedNext(): Promise<IteratorResult<T>> {
    for (;;) {
      const head = this.queue[0];
      if (head !== undefined) {
        const wait = head.at - this.ticker.now();
        if (wait > 0) {
          await new Promise<void>((r) => this.ticker.schedule(this.timerKey, wait, r));
          continue;
        }
        this.queue.shift();
        this.queuedBytes -= head.bytes;
        this.release();
        return { done: false, value: head.chunk };
      }
      if (this.failure !== null) throw this.failure.error;
      if (this.ended || this.stopped) return { done: true, value: undefined };
      if (this.passes()) return this.it.next();
      if (!this.pumping) void this.pump();
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  /** Reads ahead while the link has conditions, each chunk queued with its deadline; stops once it is clear. */
  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (!this.stopped) {
        const r = await this.it.next();
        if (r.done === true) {
          this.ended = true;
          break;
        }
        const bytes = r.value.byteLength;
        this.queue.push({ chunk: r.value, at: this.deadline(bytes), bytes });
        this.queuedBytes += bytes;
        this.wakeUp();
        if (this.clear()) break;
        while (this.queuedBytes > HIGH_WATER_BYTES && !this.stopped)
          await new Promise<void>((r) => (this.drained = r));
      }
      if (this.stopped) await this.it.return?.();
    } catch (error) {
      this.failure = { error };
    } finally {
      this.pumping = false;
      this.wakeUp();
    }
  }
}
