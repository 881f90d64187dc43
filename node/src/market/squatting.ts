/**
 * What stops a worker from holding tasks it does not work on (docs/MARKET.md, "Claims"; issue
 * 24, item 5). A claim costs nothing, so it must not last: it lapses when no result comes within
 * the claim window (chain time, at most the deadline), the task is pending again, and that
 * worker may never claim it again; and one worker holds at most a few tasks in progress at once.
 * A squatter then holds a task one window at the most, while an honest worker that submits its
 * result within the window completes the task as before. Pure.
 */
import type { TaskRecord } from './types.js';

export interface ClaimRules {
  /** A claim lapses when no result is in a block by claimed_at + this (capped by the deadline). */
  readonly claimWindowSeconds: number;
  /** Tasks one worker may hold in progress at once. */
  readonly maxClaimsPerWorker: number;
}

export const DEFAULT_CLAIM_RULES: ClaimRules = { claimWindowSeconds: 3_600, maxClaimsPerWorker: 8 };

/** When a claim taken at `claimedAt` lapses: the window's end, never after the deadline. */
export const claimExpiry = (claimedAt: number, deadline: number, rules: ClaimRules): number =>
  Math.min(claimedAt + rules.claimWindowSeconds, deadline);

/** Why this worker may not claim this pending task now, or null. `held`: its tasks in progress. */
export function claimRefusal(t: TaskRecord, worker: string, held: number, rules: ClaimRules): string | null {
  if (t.lapsed?.includes(worker))
    return 'Your claim of this task lapsed without a result: a worker cannot claim a task again';
  if (held >= rules.maxClaimsPerWorker)
    return `Worker already has ${held} tasks in progress (at most ${rules.maxClaimsPerWorker}): finish or report one first`;
  return null;
}

/** Whether the claim of a task in progress has lapsed by a block of time `timestamp`. */
export const claimLapsed = (t: TaskRecord, timestamp: number): boolean =>
  t.status === 'in_progress' && t.worker !== null && t.worker.expires_at < timestamp;

/** The task pending again, its lapsed worker remembered. */
export function lapse(t: TaskRecord): TaskRecord {
  return { ...t, status: 'pending', worker: null, lapsed: [...(t.lapsed ?? []), t.worker!.address] };
}
