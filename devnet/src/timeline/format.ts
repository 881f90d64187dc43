/**
 * The timeline as `devnet logs --all` prints it: a line an entry, its time (UTC, to the
 * millisecond), its source padded so the columns line up, its level, its message and fields as
 * key=value; with --json, the entry's own JSON line with `source` added (one object a line, the
 * form docs/PROTOCOL.md "Timeline" gives).
 */
import type { TimelineEntry } from './entries.js';

const fieldText = (v: unknown) => (typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v));

export function formatEntry(e: TimelineEntry, sourceWidth: number): string {
  const time = new Date(e.time).toISOString().replace('T', ' ').slice(0, 23);
  const source = e.source.padEnd(sourceWidth);
  if (e.level === 'text') return `${time}  ${source}  ${'     '}  ${e.msg}`;
  const fields = Object.entries(e.fields)
    .map(([k, v]) => `${k}=${fieldText(v)}`)
    .join(' ');
  return `${time}  ${source}  ${e.level.toUpperCase().padEnd(5)}  ${e.msg}${fields === '' ? '' : `  ${fields}`}`;
}

/** A whole timeline as text, a line an entry, its sources' column as wide as the widest (a kept run's timeline.log). */
export function formatTimeline(entries: readonly TimelineEntry[]): string {
  const width = Math.max(0, ...entries.map((e) => e.source.length));
  return entries.map((e) => `${formatEntry(e, width)}\n`).join('');
}

/** The entry as one JSON line: its log's object with `source` (a `text` line: time, source, level text, msg). */
export function entryJson(e: TimelineEntry): string {
  return JSON.stringify({
    time: new Date(e.time).toISOString(),
    source: e.source,
    level: e.level,
    msg: e.msg,
    ...e.fields,
  });
}
