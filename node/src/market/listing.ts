/**
 * GET /tasks from the store (docs/MARKET.md, "GET /tasks"): each task is indexed under one key
 * per filter GET /tasks allows (none, status, challenge_type, both), each key ending in its
 * creation order (created_at, then task_id), so a page is a range read and `total` a counter.
 * Settled tasks need not be in memory to be listed. Pure: the keys and the counts.
 */
import type { ChallengeType } from './challenges.js';
import type { TaskRecord, TaskStatus } from './types.js';

/** What a list entry shows (GET /tasks's item) and what orders it. */
export interface TaskSummary {
  readonly task_id: string;
  readonly challenge_type: ChallengeType;
  readonly status: TaskStatus;
  readonly reward: string;
  readonly created_at: number;
}

export interface ListFilter {
  readonly status?: TaskStatus;
  readonly challenge_type?: string;
}

/** A listed task's summary; null for one still `funding` (not a task yet). */
export function summaryOf(t: TaskRecord | undefined): TaskSummary | null {
  if (t === undefined || t.status === 'funding') return null;
  return {
    task_id: t.task_id,
    challenge_type: t.challenge_type,
    status: t.status,
    reward: t.reward,
    created_at: t.created_at!,
  };
}

/** The key prefix of a filter (the index it reads). */
export function listPrefix(f: ListFilter): string {
  if (f.status !== undefined && f.challenge_type !== undefined) return `st!${f.status}!${f.challenge_type}!`;
  if (f.status !== undefined) return `s!${f.status}!`;
  if (f.challenge_type !== undefined) return `t!${f.challenge_type}!`;
  return 'a!';
}

/** The prefixes a summary is listed under: one per filter it matches. */
export const prefixesOf = (s: TaskSummary): string[] => [
  listPrefix({}),
  listPrefix({ status: s.status }),
  listPrefix({ challenge_type: s.challenge_type }),
  listPrefix({ status: s.status, challenge_type: s.challenge_type }),
];

/** Creation order within a prefix: 12 digits of created_at (Unix seconds), then the id. */
export const orderKey = (s: TaskSummary): string => `${String(s.created_at).padStart(12, '0')}!${s.task_id}`;

/** Whether two summaries are listed under the same keys (nothing to rewrite). */
export const sameListing = (a: TaskSummary | null, b: TaskSummary | null): boolean =>
  a?.task_id === b?.task_id && a?.status === b?.status && a?.created_at === b?.created_at;

/** The counts per prefix after a task's listing changes from `before` to `after`. */
export function recount(
  counts: Map<string, number>,
  before: TaskSummary | null,
  after: TaskSummary | null,
): void {
  if (sameListing(before, after)) return;
  for (const p of before === null ? [] : prefixesOf(before)) counts.set(p, (counts.get(p) ?? 0) - 1);
  for (const p of after === null ? [] : prefixesOf(after)) counts.set(p, (counts.get(p) ?? 0) + 1);
}
