/** What the consensus driver is built with (main/node.ts): its options and the parts it runs on. */

import type { Logger } from '@chain-devnet/kit/log';
import type { ChainState } from '../../chain/index.js';
import type { NodeMetrics } from '../../metrics/metrics.js';
import type { GossipPort } from '../../p2p/network.js';
import type { ChainService } from '../../service/chainService.js';
import type { BlockSync } from '../../sync/index.js';
import type { Ticker } from '../../util/ticker.js';
import type { HeightPace } from '../pace.js';
import type { RecordSink } from '../record/recorder.js';
import type { ConsensusSigner } from '../signer.js';
import type { Timeouts } from '../types.js';
import type { Equivocator } from './equivocatorPort.js';

export interface DriverOptions {
  /** The validator key, for the header signature of the blocks it builds; null for an observer. */
  readonly privateKey: Uint8Array | null;
  /** Signs this validator's proposals and votes (with double-sign protection); null for an observer. */
  readonly signer: ConsensusSigner | null;
  /** TEST ONLY (--byzantine equivocate): sends two versions of each of its messages; else null. */
  readonly equivocator?: Equivocator | null;
  readonly blockTimeMs: number;
  readonly timeouts: Timeouts;
  /** A node that has waited this long without a step of its own re-sends its messages of the height (ResendSchedule). */
  readonly rebroadcastMs: number;
  /** A block whose timestamp is further ahead of this node's clock is refused. */
  readonly maxClockDriftSec: number;
  /**
   * How long after the node starts (or a hold ends) no round 0 times out, whatever the height and
   * the step (0 or absent: the timeouts' own). Nodes started together (a devnet resumed,
   * a network restarted) come up seconds apart on a loaded machine; with the usual timeouts the
   * early ones would give up on round 0 while a validator it needs is still starting (its
   * proposer, or one whose resumed precommit makes the quorum) and count a slot missed, though
   * nobody was absent (docs/RULES.md, "Across a pause"). The messages that end a step sooner end
   * the wait, so the grace is paid only when a validator really is down, once per start.
   */
  readonly startGraceMs?: number;
}

/** What the driver runs on, built by the composition root (main/node.ts). */
export interface DriverDeps {
  readonly service: ChainService;
  /** null for a node without p2p. */
  readonly network: GossipPort | null;
  readonly sync: Pick<BlockSync, 'active' | 'catchUp'> | null;
  readonly metrics: NodeMetrics;
  readonly logger: Logger;
  /** Every timer and the clock (realTicker in the node, ManualTicker in tests). */
  readonly ticker: Ticker;
  /**
   * Whether the node must not sign at the height after `state` (a plan's height this binary has
   * no migration for: main/upgradeGuard.ts); the driver then enters no height and stops. Absent: never.
   */
  readonly haltsBefore?: (state: ChainState) => boolean;
  /**
   * Chain time as this node sees it, for the check of a proposal's timestamp (the test-only chain
   * control skews and offsets it); absent: the ticker's clock. Heights are paced on the ticker's,
   * so a skew changed at run time never stretches or skips a wait between heights.
   */
  readonly chainClock?: () => number;
  /** When to enter heights: held, mined with no wait, another block time (the test-only chain control). Absent: FREE_PACE. */
  readonly pace?: HeightPace;
  /** Where each height's core is recorded (consensus/record: `--record-consensus`); absent: not recorded. */
  readonly record?: RecordSink;
}
