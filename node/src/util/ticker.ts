/**
 * The one source of time for the node's timers (CometBFT's consensus/ticker.go): keyed one-shot
 * timers, repeating ones, and the clock. The consensus driver, block sync, state sync and the
 * halted node's linger keep no timer of their own, so their tests drive time with
 * ManualTicker.advance instead of sleeping, and a run is the same every time. It lives among the
 * utilities because every layer's timers go through it, not consensus's alone.
 *
 * Keys are paths: `cancel('height')` cancels `height` and every `height/…` timer, so all the
 * timers of a height go at once when the next height starts.
 */

export type Cancel = () => void;

export interface Ticker {
  /** Calls `fn` once, `ms` from now; a timer pending under `key` is replaced. */
  schedule(key: string, ms: number, fn: () => void): void;
  /** Whether a timer is pending under exactly `key`. */
  pending(key: string): boolean;
  /** Cancels the timer of `key` and those under `key/`. */
  cancel(key: string): void;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): Cancel;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Whether timer `key` is `prefix` or under it (`height/…` under `height`): what cancel(prefix) cancels. */
export const keyUnder = (key: string, prefix: string) => key === prefix || key.startsWith(`${prefix}/`);

export interface RealTickerOptions {
  /** Timers that do not keep the process alive (a watch that only reports). */
  readonly unref?: boolean;
}

/** A ticker over Node's timers and the given clock (the node's, which tests may replace). */
export function realTicker(now: () => number = Date.now, opts: RealTickerOptions = {}): Ticker {
  const timers = new Map<string, NodeJS.Timeout>();
  const cancel = (prefix: string) => {
    for (const [key, timer] of timers)
      if (keyUnder(key, prefix)) {
        clearTimeout(timer);
        timers.delete(key);
      }
  };
  return {
    schedule(key, ms, fn) {
      cancel(key);
      const timer = setTimeout(() => {
        timers.delete(key);
        fn();
      }, ms);
      if (opts.unref) timer.unref();
      timers.set(key, timer);
    },
    pending: (key) => timers.has(key),
    cancel,
    every(ms, fn) {
      const timer = setInterval(fn, ms);
      if (opts.unref) timer.unref();
      return () => clearInterval(timer);
    },
    now,
  };
}

interface Entry {
  readonly key: string | null;
  due: number;
  readonly seq: number;
  readonly fn: () => void;
  /** Repeats every this many ms; null for a one-shot timer. */
  readonly period: number | null;
}

/**
 * A ticker whose time moves only when told (tests). `advance` fires what falls due in order of
 * due time, then of scheduling; the clock stands at each timer's due time while it runs. The
 * clock may be a shared object (a test harness's), moved by the test as well.
 */
export class ManualTicker implements Ticker {
  private entries: Entry[] = [];
  private seq = 0;

  constructor(private readonly clock: { now: number } = { now: 0 }) {}

  now(): number {
    return this.clock.now;
  }

  schedule(key: string, ms: number, fn: () => void): void {
    this.cancel(key);
    this.entries.push({ key, due: this.clock.now + ms, seq: this.seq++, fn, period: null });
  }

  pending(key: string): boolean {
    return this.entries.some((e) => e.key === key);
  }

  cancel(key: string): void {
    this.entries = this.entries.filter((e) => e.key === null || !keyUnder(e.key, key));
  }

  every(ms: number, fn: () => void): Cancel {
    const entry: Entry = { key: null, due: this.clock.now + ms, seq: this.seq++, fn, period: ms };
    this.entries.push(entry);
    return () => {
      this.entries = this.entries.filter((e) => e !== entry);
    };
  }

  /** Moves the clock `ms` forward, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.clock.now + ms;
    for (;;) {
      const next = this.entries.filter((e) => e.due <= end).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (next === undefined) break;
      this.clock.now = Math.max(this.clock.now, next.due);
      if (next.period === null) this.entries = this.entries.filter((e) => e !== next);
      else next.due += Math.max(1, next.period);
      next.fn();
    }
    this.clock.now = Math.max(this.clock.now, end);
  }
}
