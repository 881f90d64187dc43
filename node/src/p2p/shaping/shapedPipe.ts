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
/** How far behind its rate a link may queue before the reading waits. */
export const BACKLOG_MS = 1_000;
/** How often a chunk waiting for a later deadline looks whether its link was cleared. */
const RECHECK_MS = 250;

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
  /** How many ms the link's rate is behind now (0: none); the reading waits past BACKLOG_MS. */
  behindMs: () => number = () => 0,
): AsyncIterableIterator<T> {
  return new ShapedPipe(source[Symbol.asyncIterator](), deadline, clear, ticker, timerKey, behindMs);
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
    private readonly behindMs: () => number,
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
    this.ticker.cancel(`${this.timerKey}-backlog`);
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
        // A link cleared meanwhile delivers what waits at once, in order (a cleared link is clear).
        const wait = this.clear() ? 0 : head.at - this.ticker.now();
        if (wait > 0) {
          // Looked at again at least every RECHECK_MS: a link cleared meanwhile goes at once.
          await new Promise<void>((r) => this.ticker.schedule(this.timerKey, Math.min(wait, RECHECK_MS), r));
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
        // At most HIGH_WATER_BYTES, and at most BACKLOG_MS of the link's rate behind (a socket's
        // buffer, not minutes of queue: 4 MiB at 256 kbit/s were two minutes, which a cleared
        // link still delivered at the old pace and a chain stalled on; e2e scenario 14).
        while ((this.queuedBytes > HIGH_WATER_BYTES || this.behindMs() > BACKLOG_MS) && !this.stopped)
          await new Promise<void>((r) => {
            this.drained = r;
            // A backlog drains with time, not only with a delivery: look again after a while.
            this.ticker.schedule(`${this.timerKey}-backlog`, BACKLOG_MS / 4, r);
          });
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
