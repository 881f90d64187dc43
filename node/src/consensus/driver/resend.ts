/**
 * When a node re-sends its own consensus messages (HeightConsensus.rebroadcast): once it has
 * waited `quietMs` without a step of its own (HeightConsensus.progress), and again while it keeps
 * waiting, each wait twice the one before, up to `maxQuietMs`. A node that moves on re-sends
 * nothing; one that waits may be waiting for peers that lost what it sent, and they get it again.
 *
 * Re-sending every `quietMs` whatever happens fed on itself with 21 validators on 2 cores:
 * each re-sent message is new bytes that every node receives, checks and passes on; heights
 * slower than a second were re-sent by all, which made them slower still (about 400 vote
 * messages per height reached a node instead of 42, 17 heights a minute instead of about 56).
 *
 * Re-sending every `quietMs` while waiting still fed on itself with 50 validators on 2 cores:
 * heights there take tens of seconds, and every validator re-sent its votes of up to 16 rounds
 * every second, as new bytes (each copy carries its send time) that every node received, checked
 * and passed on: 96% of the 15,700 votes a node accepted in its first 4 minutes were re-sends of
 * the ~600 of the rounds it went through, and its event loop lagged 10 s (docs/BENCHMARKS.md).
 * Backing off (1, 2, 4, 8, 8… s) keeps the re-send for lost messages (a peer that joins gets
 * them at once: resendOnJoin) at a bounded cost however long a height waits.
 *
 * Pure (time comes in), so the consensus simulation follows the same rule as the driver; the
 * functions below run it, and the re-send to a joining peer, on the driver's ticker.
 */
import type { Cancel, Ticker } from '../../util/ticker.js';

/** The longest wait between two re-sends, in re-send periods (`quietMs`). */
export const MAX_QUIET_PERIODS = 8;

export class ResendSchedule {
  private seen: number;
  private since: number;
  /** The wait before the next re-send: quietMs after progress, doubled by each re-send. */
  private wait: number;

  constructor(
    private readonly quietMs: number,
    progress: number,
    now: number,
    private readonly maxQuietMs = quietMs * MAX_QUIET_PERIODS,
  ) {
    this.seen = progress;
    this.since = now;
    this.wait = quietMs;
  }

  /** Whether to re-send now, given the node's progress counter; ask every quietMs / 4 or so. */
  due(progress: number, now: number): boolean {
    if (progress !== this.seen) {
      this.seen = progress;
      this.since = now;
      this.wait = this.quietMs;
      return false;
    }
    if (now - this.since < this.wait) return false;
    this.since = now;
    this.wait = Math.min(this.wait * 2, this.maxQuietMs);
    return true;
  }
}

/**
 * Runs a ResendSchedule on the ticker for one height's core: `send` when it is due, asked every
 * quietMs / 4 (at least 10 ms) while `active()` holds.
 */
export function resendWhileQuiet(
  ticker: Ticker,
  quietMs: number,
  core: { readonly progress: number },
  active: () => boolean,
  send: () => void,
): Cancel {
  const schedule = new ResendSchedule(quietMs, core.progress, ticker.now());
  return ticker.every(Math.max(10, Math.floor(quietMs / 4)), () => {
    if (active() && schedule.due(core.progress, ticker.now())) send();
  });
}

/** The ticker key of the re-send to a joining peer (the driver cancels it when it stops). */
export const JOIN_TIMER = 'join';

/**
 * A peer that just joined missed what we sent before: the returned handler re-sends our current
 * messages 20 ms after a join, once per burst of joins, so a network starting together decides its
 * first block without waiting for the periodic re-send.
 */
export function resendOnJoin(ticker: Ticker, send: () => void): () => void {
  return () => {
    if (!ticker.pending(JOIN_TIMER)) ticker.schedule(JOIN_TIMER, 20, send);
  };
}
