/**
 * When a node re-sends its own consensus messages (HeightConsensus.rebroadcast): once it has
 * waited `quietMs` without a step of its own (HeightConsensus.progress), and again every
 * `quietMs` while it keeps waiting. A node that moves on re-sends nothing; one that waits may
 * be waiting for peers that lost what it sent, and they get it again.
 *
 * Re-sending every `quietMs` whatever happens fed on itself with 21 validators on 2 cores:
 * each re-sent message is new bytes that every node receives, checks and passes on; heights
 * slower than a second were re-sent by all, which made them slower still (about 400 vote
 * messages per height reached a node instead of 42, 17 heights a minute instead of about 56).
 *
 * Pure (time comes in), so the consensus simulation follows the same rule as the driver; the
 * functions below run it, and the re-send to a joining peer, on the driver's ticker.
 */
import type { Cancel, Ticker } from './ticker.js';

export class ResendSchedule {
  private seen: number;
  private since: number;

  constructor(
    private readonly quietMs: number,
    progress: number,
    now: number,
  ) {
    this.seen = progress;
    this.since = now;
  }

  /** Whether to re-send now, given the node's progress counter; ask every quietMs / 4 or so. */
  due(progress: number, now: number): boolean {
    if (progress !== this.seen) {
      this.seen = progress;
      this.since = now;
      return false;
    }
    if (now - this.since < this.quietMs) return false;
    this.since = now;
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
