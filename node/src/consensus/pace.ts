/**
 * How the consensus driver paces heights: when it may enter the next one, how long it waits
 * between heights, and whether its timeouts are held. Without a control (every node but a test
 * one) it is `FREE_PACE`: every height entered one block time after the last. The test-only chain
 * control (faults/chainControl.ts, docs/PROTOCOL.md "Chain control") holds the chain, mines heights
 * with no wait and changes the block time through it: time control goes through consensus, so a
 * held chain is validators that do not enter the next height, a mined stretch heights with no
 * wait between them, and every block is decided by the validators as any other.
 */
export interface HeightPace {
  /** Whether the validator may enter `height` now (false: it waits for a change of the pace). */
  mayEnter(height: number): boolean;
  /** The wait from entering the height before to entering `height`, given the node's own block time. */
  waitMs(height: number, blockTimeMs: number): number;
  /** Whether the timeouts of `height` are held: one falling due waits until the hold ends. */
  timeoutsHeld(height: number): boolean;
  /** Calls `fn` after every change of the pace. */
  onChange(fn: () => void): void;
}

export const FREE_PACE: HeightPace = {
  mayEnter: () => true,
  waitMs: (_height, blockTimeMs) => blockTimeMs,
  timeoutsHeld: () => false,
  onChange: () => undefined,
};
