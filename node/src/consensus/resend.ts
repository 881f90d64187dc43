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
 * Pure (time comes in), so the consensus simulation follows the same rule as the driver.
 */
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
