/**
 * Runs block sync for the driver when catchUpPolicy.ts says so: asked every STALL_CHECK_MS
 * whether the height stalled or went silent, told when a message shows peers past this height.
 * It keeps the times those rules read; one sync run at a time (BlockSync's).
 */
import type { Logger } from '@chain-devnet/kit/log';
import { isWriteFailed } from '../../store/errors.js';
import type { Ticker } from '../../util/ticker.js';
import type { BlockSync } from './blockSync.js';
import { behindGraceMs, onTick } from './catchUpPolicy.js';

/** The ticker key of the wait for this node's own decision (the driver cancels it when it stops). */
export const BEHIND_TIMER = 'behind';

/** What the driver tells about its height. */
export interface CatchUpHost {
  height(): number;
  /** Whether the height is still to be decided here (HeightConsensus running, not committing). */
  deciding(): boolean;
  stopped(): boolean;
  /** After a sync run: enters the next height if the run (or anything else) committed this one. */
  synced(): void;
}

export class CatchUp {
  private heightStartedAt = 0;
  private lastProgressAt = 0;
  /** Whether a proposal or vote of the current height has come from a peer. */
  private heard = false;
  /** When this node last asked a few peers whether they had moved past a silent height. */
  private askedAt = 0;

  constructor(
    private readonly sync: Pick<BlockSync, 'active' | 'catchUp'> | null,
    private readonly logger: Logger,
    private readonly ticker: Ticker,
    private readonly blockTimeMs: number,
    private readonly host: CatchUpHost,
  ) {}

  /** The node entered a height. */
  entered(): void {
    this.heightStartedAt = this.ticker.now();
    this.lastProgressAt = this.heightStartedAt;
    this.heard = false;
  }

  /** A proposal or vote of the height came from a peer. */
  heardOne(): void {
    this.lastProgressAt = this.ticker.now();
    this.heard = true;
  }

  async run(askPeers?: number): Promise<void> {
    if (this.sync === null || this.sync.active) return;
    try {
      await this.sync.catchUp(askPeers);
    } catch (e) {
      // A write the disk refused is logged once by the disk's health, not every stall check.
      if (!isWriteFailed(e)) this.logger.warn('sync failed', { error: (e as Error).message });
    }
    // A height committed meanwhile (by this run, even one that failed midway, or by another) is
    // left for the next one: waiting for a run that applies blocks could wait forever once the
    // peers stop being ahead.
    if (!this.host.stopped()) this.host.synced();
  }

  /** The periodic check (not while a commit is in progress: that is progress). */
  tick(): void {
    const now = this.ticker.now();
    const { lastProgressAt, askedAt, blockTimeMs } = this;
    const due = onTick({ now, blockTimeMs, lastProgressAt, askedAt, deciding: this.host.deciding() });
    if (due.kind === 'stalled') {
      this.lastProgressAt = now;
      void this.run();
    } else if (due.kind === 'silent') {
      this.logger.debug('nothing of this height for a while: asking peers', {
        height: this.host.height(),
        quietMs: due.quietMs,
      });
      this.askedAt = now;
      void this.run(due.askPeers);
    }
  }

  /** A message of the next height came while this one is undecided: peers have decided it. */
  nextHeightSeen(): void {
    if (this.ticker.pending(BEHIND_TIMER)) return;
    const height = this.host.height();
    const graceMs = behindGraceMs(this.heard, this.heightStartedAt, this.ticker.now());
    this.ticker.schedule(BEHIND_TIMER, graceMs, () => {
      if (this.host.height() === height && this.host.deciding() && !this.host.stopped()) {
        this.logger.info('peers are past this height: block sync', { height });
        void this.run();
      }
    });
  }
}
