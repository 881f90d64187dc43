/**
 * TEST ONLY (fault injection, issue 42): the chain control in force on a node, following
 * <home>/chain_control.json (chainControlFile.ts has its form) as every fault file is followed
 * (faultFile.ts: read at start and on each change; a missing file is no control). Honoured only
 * with --fault-injection; without it the node has no control at all (its clock is the machine's,
 * its heights paced by its block time) and a file present is noted once, ignored.
 *
 * What it holds in force: the pace of heights for the consensus driver (consensus/pace.ts: held,
 * mined, another block time), the node's own clock (the machine's plus the skew) and the chain
 * clock (the node's plus the chain-time offset: block timestamps, their check, mempool ages). A
 * file that cannot be used, or one whose time_offset_ms would move chain time backwards, is
 * refused with a warning naming the field, and the control in force stays.
 */
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import type { HeightPace } from '../consensus/pace.js';
import {
  CHAIN_CONTROL_FILE,
  type ChainControl,
  chainControlToJson,
  NO_CHAIN_CONTROL,
  parseChainControl,
} from './chainControlFile.js';
import { followFaultFile, noteIgnoredFaultFile } from './faultFile.js';

type Change = (before: ChainControl, after: ChainControl) => void;

export class ChainControlInForce implements HeightPace {
  private current: ChainControl = NO_CHAIN_CONTROL;
  private readonly listeners: Change[] = [];

  constructor(
    /** The machine's clock (ms since the epoch). */
    private readonly machine: () => number,
  ) {}

  get control(): ChainControl {
    return this.current;
  }

  /** The node's own clock: the machine's with the skew in force. */
  readonly clock = (): number => this.machine() + this.current.clockSkewMs;

  /** Chain time for this node: its own clock plus the chain-time offset in force. */
  readonly chainClock = (): number => this.clock() + this.current.timeOffsetMs;

  /** Why `next` cannot be put in force, or null. */
  refusal(next: ChainControl): string | null {
    if (next.timeOffsetMs < this.current.timeOffsetMs)
      return `time_offset_ms ${next.timeOffsetMs} would move chain time backwards (${this.current.timeOffsetMs} in force)`;
    return null;
  }

  /** Puts `next` in force (refusal() checked first) and tells every listener. */
  set(next: ChainControl): void {
    const before = this.current;
    this.current = next;
    for (const fn of this.listeners) fn(before, next);
  }

  /** Calls `fn` after every change, with the control before and after. */
  onControl(fn: Change): void {
    this.listeners.push(fn);
  }

  private mining(height: number): boolean {
    return this.current.mineToHeight !== null && height <= this.current.mineToHeight;
  }

  mayEnter(height: number): boolean {
    return !this.current.hold || this.mining(height);
  }

  waitMs(height: number, blockTimeMs: number): number {
    return this.mining(height) ? 0 : (this.current.blockTimeMs ?? blockTimeMs);
  }

  timeoutsHeld(height: number): boolean {
    return this.current.hold && !this.mining(height);
  }

  onChange(fn: () => void): void {
    this.onControl(() => fn());
  }
}

/** Puts the file's text in force on `control`; a text that cannot be used is refused, the control before it staying. */
export function applyChainControl(
  text: string | null,
  control: ChainControlInForce,
  path: string,
  logger: Logger,
): void {
  const parsed = text === null ? { ok: true as const, control: NO_CHAIN_CONTROL } : parseChainControl(text);
  const why = parsed.ok ? control.refusal(parsed.control) : parsed.error;
  if (!parsed.ok || why !== null) {
    logger.warn(`${CHAIN_CONTROL_FILE}: ${why}; refused, the chain control in force stays`, {
      path,
      in_force: chainControlToJson(control.control),
    });
    return;
  }
  control.set(parsed.control);
  logger.warn('CHAIN CONTROL in force', { path, ...chainControlToJson(parsed.control) });
}

/** Follows `path` onto `control`; settles once the file as it is at start is in force. Returns what stops following it. */
export async function watchChainControl(
  path: string,
  control: ChainControlInForce,
  logger: Logger,
): Promise<() => void> {
  const followed = followFaultFile(
    path,
    (text) => {
      // No file and no control in force: nothing to say (a node of a devnet that never touched time).
      if (text === null && control.control === NO_CHAIN_CONTROL) return;
      applyChainControl(text, control, path, logger);
    },
    logger,
  );
  await followed.ready;
  return followed.stop;
}

/**
 * The chain control of a node (null without --fault-injection, a file present then noted once),
 * following <home>/chain_control.json over the machine's clock `now`; `stop` ends the following.
 */
export async function chainControl(
  home: string,
  faultInjection: boolean,
  now: () => number,
  logger: Logger,
): Promise<{ control: ChainControlInForce | null; stop: () => void }> {
  const path = join(home, CHAIN_CONTROL_FILE);
  if (!faultInjection) {
    await noteIgnoredFaultFile(path, logger);
    return { control: null, stop: () => {} };
  }
  const control = new ChainControlInForce(now);
  return { control, stop: await watchChainControl(path, control, logger) };
}
