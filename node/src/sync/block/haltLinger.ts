/**
 * What a node does between halting at an upgrade plan's height (main/upgradeGuard.ts) and
 * exiting. Nodes halt the moment they commit the block before the plan, so a validator that was
 * behind then (paused, slow, restarted) can get that block and the ones before it only by block
 * sync from them; were they gone at once, it would wait at its height forever and never reach
 * the halt its supervisor waits for. So the halted node, signing nothing, keeps serving block
 * sync until every connected peer says it has the halted node's height, or HALT_LINGER_MAX_MS
 * have passed (a peer that never answers costs the bound once, not forever).
 */
import type { Logger } from '@chain-devnet/kit/log';
import type { Ticker } from '../../util/ticker.js';

/** The longest a halted node waits for peers behind it before it exits. */
export const HALT_LINGER_MAX_MS = 20_000;
/** How often it asks the peers still behind their height. */
export const HALT_LINGER_POLL_MS = 500;

export interface HaltLingerDeps {
  /** The peers connected now. */
  readonly peers: () => readonly string[];
  /** A peer's height, or null when it does not answer (BlockSync.peerHeight). */
  readonly peerHeight: (peer: string) => Promise<number | null>;
  readonly ticker: Ticker;
  readonly logger: Logger;
}

/**
 * Resolves once every connected peer has reported at least `height` (peers that disconnect
 * no longer count), or after `maxMs`: to the peers still behind (empty when none).
 */
export async function serveLaggards(
  height: number,
  deps: HaltLingerDeps,
  maxMs: number = HALT_LINGER_MAX_MS,
): Promise<string[]> {
  const { ticker, logger } = deps;
  const startedAt = ticker.now();
  const caughtUp = new Set<string>();
  const behind = () => deps.peers().filter((p) => !caughtUp.has(p));
  let announced = false;
  for (;;) {
    const asked = behind();
    if (asked.length === 0) break;
    const heights = await Promise.all(asked.map((p) => deps.peerHeight(p).catch(() => null)));
    for (const [i, h] of heights.entries()) if (h !== null && h >= height) caughtUp.add(asked[i]!);
    const left = behind();
    if (left.length === 0) break;
    if (ticker.now() - startedAt >= maxMs) {
      logger.warn('halted: exiting with peers still behind', {
        height,
        peers: left,
        waited_ms: ticker.now() - startedAt,
      });
      return left;
    }
    if (!announced) {
      announced = true;
      logger.info('halted: serving block sync until the peers behind have the blocks', {
        height,
        peers: left,
      });
    }
    await new Promise<void>((resolve) => ticker.schedule('halt-linger', HALT_LINGER_POLL_MS, resolve));
  }
  if (announced)
    logger.info('halted: every connected peer has the blocks', {
      height,
      waited_ms: ticker.now() - startedAt,
    });
  return [];
}
