/**
 * What `devnet logs --all` is asked, read from its flags: the filters (filter.ts) with their
 * values checked, each bad one named (`--height must be A..B …`), and a time as an ISO instant or a
 * duration before now.
 */
import { parseDuration } from '@chain-devnet/kit/values';
import { DevnetError } from '../base/errors.js';
import { LEVELS, type Level } from './entries.js';
import type { TimelineFilter } from './filter.js';

export interface TimelineFlags {
  readonly node?: readonly string[] | undefined;
  readonly level?: string | undefined;
  readonly grep?: string | undefined;
  readonly height?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
}

const bad = (flag: string, what: string, got: string) =>
  new DevnetError('BAD_FLAG', `${flag} must be ${what}, got ${JSON.stringify(got)}`);

/** An instant: an ISO time (2026-12-04T10:00:00Z), or a duration before `now` (10m: ten minutes ago). */
function instant(flag: string, text: string, now: number): number {
  const ago = parseDuration(text);
  if (ago !== null && /[a-z]$/.test(text.trim())) return now - ago;
  const t = Date.parse(text);
  if (Number.isNaN(t))
    throw bad(flag, 'an ISO time (2026-12-04T10:00:00Z) or a duration before now (10m)', text);
  return t;
}

export function timelineFilter(f: TimelineFlags, sources: readonly string[], now: number): TimelineFilter {
  const unknown = (f.node ?? []).filter((n) => !sources.includes(n));
  if (unknown.length > 0)
    throw new DevnetError(
      'UNKNOWN_NODE',
      `--node ${unknown.join(',')}: not a log of this devnet (${sources.join(', ')})`,
    );
  if (f.level !== undefined && !(LEVELS as readonly string[]).includes(f.level))
    throw bad('--level', LEVELS.join(', '), f.level);
  let grep: RegExp | undefined;
  if (f.grep !== undefined)
    try {
      grep = new RegExp(f.grep);
    } catch (e) {
      throw bad('--grep', `a regular expression (${(e as Error).message})`, f.grep);
    }
  let heights: TimelineFilter['heights'];
  if (f.height !== undefined) {
    const m = /^(\d{1,15})(?:\.\.(\d{1,15}))?$/.exec(f.height.trim());
    const from = Number(m?.[1]);
    const to = Number(m?.[2] ?? m?.[1]);
    if (m === null || to < from) throw bad('--height', 'a height H or a range A..B with A <= B', f.height);
    heights = { from, to };
  }
  return {
    ...(f.node === undefined ? {} : { sources: f.node }),
    ...(f.level === undefined ? {} : { level: f.level as Level }),
    ...(grep === undefined ? {} : { grep }),
    ...(heights === undefined ? {} : { heights }),
    ...(f.since === undefined ? {} : { since: instant('--since', f.since, now) }),
    ...(f.until === undefined ? {} : { until: instant('--until', f.until, now) }),
  };
}
