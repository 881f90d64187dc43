/**
 * Says in the log why a slot went by (docs/CONSENSUS.md, "Missed slots and uptime"): which
 * proposer did not deliver and how late this node's own timer fired (a busy event loop or a
 * starved process shows there, not as a slow proposer), its proposal arriving later (once), and a
 * height entered late, which as proposer would delay this node's proposal.
 */

import type { Logger } from '@chain-devnet/kit/log';
import type { Proposal } from '../../chain/index.js';
import type { HeightConsensus } from '../heightConsensus.js';

/** Entering a height this much later than the block time's pace is logged. */
const LATE_ENTRY_MS = 250;

export class SlotLog {
  /** Rounds of this height whose propose timeout fired here (a proposal arriving later is logged once). */
  private readonly timedOut = new Set<number>();

  constructor(private readonly logger: Logger) {}

  /** On entering `height`; `lateMs` past the block time's pace after the height before it. */
  entered(height: number, lateMs: number | null): void {
    this.timedOut.clear();
    if (lateMs !== null && lateMs > LATE_ENTRY_MS)
      this.logger.info('height entered late', { height, lateMs });
  }

  /** A propose timeout fired: if the core still waits for that round's proposal, the slot goes by. */
  proposeTimedOut(
    core: Pick<HeightConsensus, 'round' | 'step' | 'proposerOf'>,
    height: number,
    round: number,
    late: { readonly sinceHeightMs: number; readonly timerLateMs: number },
  ): void {
    if (core.round !== round || core.step !== 'propose') return;
    this.timedOut.add(round);
    this.logger.info('no proposal in time', {
      height,
      round,
      proposer: core.proposerOf(round).address,
      ...late,
    });
  }

  proposal(p: Proposal, sinceHeightMs: number): void {
    if (this.timedOut.delete(p.round))
      this.logger.info('proposal after its propose timeout', {
        height: p.height,
        round: p.round,
        proposer: p.proposer,
        sinceHeightMs,
      });
  }
}
