/**
 * The simulation's virtual time: one queue of events for every node of a run, each at its due
 * time, taken in order of due time and then of scheduling. Each node gets a Ticker over it
 * (`tickerFor`), so its consensus, sync and mempool timers are the node's own code's, moved by
 * the queue instead of the wall clock. Between two events the scheduler lets every job already
 * queued run (promise jobs and immediates: the in-memory store's writes), with no timer or I/O
 * of the machine in the path, so the order of everything is the same on every run of a seed.
 */
import { type Cancel, keyUnder, type Ticker } from '../util/ticker.js';
import { EventQueue } from './eventQueue.js';

interface Event {
  /** Moved to the unpause's time for a paused node's event (the same object, so its cancel holds). */
  due: number;
  seq: number;
  readonly fn: () => void;
  /** The node whose work it is (its timer, a message to it): held while that node is paused. */
  readonly owner: string | undefined;
  cancelled: boolean;
}

/** One turn of the event loop: the promise jobs and immediates queued before it have run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Turns given to the jobs an event starts before the next event (a commit is a few store writes deep). */
const TURNS_PER_EVENT = 3;

export interface RunLimits {
  /** Virtual milliseconds since the epoch at which the run stops. */
  readonly until: number;
  /** Checked after each event; true stops the run. */
  readonly done?: () => boolean;
  /** A bound on events, so a run that loops on itself ends. */
  readonly maxEvents?: number;
}

/** A node's ticker; `silence` ends every timer it set and ignores the ones asked after (a crashed node's). */
export interface SimTicker extends Ticker {
  silence(): void;
  /** Its clock from now `ms` off the virtual clock (a skewed node); its timers' waits are unchanged. */
  setOffset(ms: number): void;
}

export class SimScheduler {
  private readonly queue = new EventQueue<Event>();
  /** The events of each paused node, in the order they fell due. */
  private readonly held = new Map<string, Event[]>();
  private seq = 0;
  private clock: number;
  /** Events run so far. */
  events = 0;

  constructor(startMs: number) {
    this.clock = startMs;
  }

  get now(): number {
    return this.clock;
  }

  /** Runs `fn` `ms` from now (0: after what is due now); the returned function cancels it. */
  after(ms: number, fn: () => void, owner?: string): Cancel {
    const event: Event = { due: this.clock + Math.max(0, ms), seq: this.seq++, fn, owner, cancelled: false };
    this.enqueue(event);
    return () => {
      event.cancelled = true;
    };
  }

  /** `owner` is frozen (SIGSTOP): its timers and the messages to it wait until `unpause`. */
  pause(owner: string): void {
    if (!this.held.has(owner)) this.held.set(owner, []);
  }

  /** What fell due for `owner` while it was paused runs now, in the order it fell due. */
  unpause(owner: string): void {
    const held = this.held.get(owner);
    this.held.delete(owner);
    for (const e of held ?? []) {
      e.due = this.clock;
      e.seq = this.seq++;
      this.enqueue(e);
    }
  }

  isPaused(owner: string): boolean {
    return this.held.has(owner);
  }

  private enqueue(event: Event): void {
    this.queue.push(event);
  }

  /** A node's Ticker on this queue; its clock is the virtual clock plus `offsetMs` (a skewed node). */
  tickerFor(startOffsetMs = 0, owner?: string): SimTicker {
    let offsetMs = startOffsetMs;
    const timers = new Map<string, Cancel>();
    const loops = new Set<Cancel>();
    let silenced = false;
    const cancel = (prefix: string) => {
      for (const [key, stop] of timers)
        if (keyUnder(key, prefix)) {
          stop();
          timers.delete(key);
        }
    };
    return {
      schedule: (key, ms, fn) => {
        cancel(key);
        if (silenced) return;
        timers.set(
          key,
          this.after(
            ms,
            () => {
              timers.delete(key);
              fn();
            },
            owner,
          ),
        );
      },
      pending: (key) => timers.has(key),
      cancel,
      every: (ms, fn) => {
        if (silenced) return () => undefined;
        // The next tick is queued before this one runs, so a stop from inside fn cancels it too.
        let next: Cancel;
        const tick = () => {
          next = this.after(Math.max(1, ms), tick, owner);
          fn();
        };
        next = this.after(Math.max(1, ms), tick, owner);
        const stop = () => {
          next();
          loops.delete(stop);
        };
        loops.add(stop);
        return stop;
      },
      now: () => this.clock + offsetMs,
      setOffset: (ms) => {
        offsetMs = ms;
      },
      silence: () => {
        silenced = true;
        for (const stop of timers.values()) stop();
        timers.clear();
        for (const stop of [...loops]) stop();
      },
    };
  }

  /** Runs events in order until a limit is reached; whether `done` was met. */
  async run(limits: RunLimits): Promise<boolean> {
    const maxEvents = limits.maxEvents ?? Number.MAX_SAFE_INTEGER;
    for (let i = 0; i < TURNS_PER_EVENT; i++) await turn();
    for (;;) {
      if (limits.done?.()) return true;
      const event = this.queue.peek();
      if (event === undefined || event.due > limits.until || this.events >= maxEvents) break;
      this.queue.pop();
      if (event.cancelled) continue;
      const held = event.owner === undefined ? undefined : this.held.get(event.owner);
      if (held !== undefined) {
        held.push(event);
        continue;
      }
      this.clock = Math.max(this.clock, event.due);
      this.events++;
      event.fn();
      for (let i = 0; i < TURNS_PER_EVENT; i++) await turn();
    }
    if (this.queue.size === 0 || (this.queue.peek()?.due ?? 0) > limits.until)
      this.clock = Math.max(this.clock, limits.until);
    return limits.done?.() ?? false;
  }
}
