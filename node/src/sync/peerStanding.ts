/**
 * Each sync peer's standing: a peer that failed a sync request (no answer in time, a malformed
 * answer, a height it claimed and could not serve, a block or commit refused) is skipped by block
 * sync for a while, twice as long after each failure in a row, up to MAX_BACKOFF_MS; a request it
 * serves well clears its record. A liar that claims a huge height and then stalls costs one
 * request timeout, not one per run (it held every validator's sync 40 s at a time).
 */

/** The first failure's backoff; each further failure in a row doubles it. */
export const BASE_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 2 * 60_000;

export interface PeerRecord {
  /** Failures in a row (0: in good standing). */
  readonly failures: number;
  /** Skipped until this time (ms since the epoch). */
  readonly until: number;
  readonly lastReason: string;
}

export class PeerStanding {
  private readonly records = new Map<string, PeerRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Scores `peer` down; returns how long it is now skipped, in ms. */
  failed(peer: string, reason: string): number {
    const failures = (this.records.get(peer)?.failures ?? 0) + 1;
    const backoff = Math.min(BASE_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS);
    this.records.set(peer, { failures, until: this.now() + backoff, lastReason: reason });
    return backoff;
  }

  succeeded(peer: string): void {
    this.records.delete(peer);
  }

  /** Whether sync may ask `peer` now (not in a backoff). */
  usable(peer: string): boolean {
    return (this.records.get(peer)?.until ?? 0) <= this.now();
  }

  /** The peer's record, or null when it is in good standing. */
  of(peer: string): PeerRecord | null {
    return this.records.get(peer) ?? null;
  }
}
