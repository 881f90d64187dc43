/**
 * What `devnet logs --all` keeps of the timeline: by source, by level (that level and graver), by
 * a regular expression over the line, by time (--since, --until) and by heights. A height range
 * A..B is the stretch of time the chain spent there: from the first entry of any log that names a
 * height from A to B up to the first that names a height above B (the chain moved on; without
 * one, to the last entry naming A..B), and every entry within it, also those that name no height
 * (a timeout, a peer lost, the devnet's own operations) or another one (a node behind). A node
 * that replays those heights later by block sync is not in it: its replay is not the chain's time there.
 */
import { LEVELS, type Level, type TimelineEntry } from './entries.js';

export interface TimelineFilter {
  /** Only these sources (node names, devnet, market …); absent: every one. */
  readonly sources?: readonly string[];
  /** This level and graver (a `text` line passes with any). */
  readonly level?: Level;
  /** Lines this matches (tested against the whole line). */
  readonly grep?: RegExp;
  /** Heights from..to, both included. */
  readonly heights?: { readonly from: number; readonly to: number };
  /** Milliseconds since the epoch, both included. */
  readonly since?: number;
  readonly until?: number;
}

export function filterTimeline(entries: readonly TimelineEntry[], f: TimelineFilter): TimelineEntry[] {
  const window = f.heights === undefined ? null : heightWindow(entries, f.heights.from, f.heights.to);
  if (window === null && f.heights !== undefined) return [];
  const min = f.level === undefined ? 0 : LEVELS.indexOf(f.level);
  return entries.filter(
    (e) =>
      (f.sources === undefined || f.sources.includes(e.source)) &&
      (e.level === 'text' || LEVELS.indexOf(e.level) >= min) &&
      (f.since === undefined || e.time >= f.since) &&
      (f.until === undefined || e.time <= f.until) &&
      (window === null || (e.time >= window.from && e.time <= window.to)) &&
      (f.grep === undefined || f.grep.test(e.line)),
  );
}

/**
 * The time from the first entry naming a height in from..to up to (not with) the first after it
 * naming a height above `to`, or to the last entry naming from..to when none does; null when no
 * entry names from..to. `entries` in time order (mergeLogs).
 */
export function heightWindow(
  entries: readonly TimelineEntry[],
  from: number,
  to: number,
): { from: number; to: number } | null {
  let first: number | null = null;
  let last = 0;
  for (const e of entries) {
    if (e.height === null) continue;
    if (first !== null && e.height > to) return { from: first, to: e.time - 1 };
    if (e.height >= from && e.height <= to) {
      first ??= e.time;
      last = e.time;
    }
  }
  return first === null ? null : { from: first, to: last };
}
