/**
 * Where a message stands by its height, before anything else is checked: the height being decided
 * (checked now), the next one (kept until the node enters it: driver/nextHeightBuffer.ts), or neither:
 * [IGNORE] stale, a height already committed here; [IGNORE] far ahead, this node is behind and
 * block sync fetches the blocks instead (sync/block/catchUpPolicy.ts).
 */
import { type GossipVerdict, ignore } from './verdict.js';

export interface HeightNow {
  /** The height this node is deciding (0 before consensus starts). */
  readonly height: number;
  /** Whether that height's consensus runs (false before consensus starts). */
  readonly started: boolean;
}

export type Placement = 'current' | 'next' | Extract<GossipVerdict, { kind: 'ignore' }>;

export function placeHeight(height: number, at: HeightNow): Placement {
  if (height === at.height && at.started) return 'current';
  // The current height before consensus started counts as next: its validators are not known yet.
  if (height === at.height + 1 || height === at.height) return 'next';
  if (height < at.height) return ignore('stale-height');
  return ignore('far-ahead');
}
