/**
 * `devnet logs --all`: the devnet's timeline (operations/timeline.ts) filtered and printed, a line
 * an entry (or --json, one object a line); with -f, the entries that come after, read again every
 * second until interrupted (each log from where the last read ended). A height range needs the
 * heights passed, so it is not followed.
 */
import type { Writable } from 'node:stream';
import { DevnetError } from '../../base/errors.js';
import type { Devnet } from '../../devnet/devnet.js';
import { timelineSources, timelineTexts } from '../../operations/timeline.js';
import { mergeLogs, parseLog, type TimelineEntry } from '../../timeline/entries.js';
import { filterTimeline } from '../../timeline/filter.js';
import { entryJson, formatEntry } from '../../timeline/format.js';
import { type TimelineFlags, timelineFilter } from '../../timeline/query.js';

const FOLLOW_MS = 1000;

export interface LogsAllOptions extends TimelineFlags {
  readonly json: boolean;
  readonly follow: boolean;
  readonly tail: number | null;
  readonly signal: AbortSignal;
}

export async function logsAll(d: Devnet, o: LogsAllOptions, out: Writable): Promise<void> {
  const sources = timelineSources(d);
  const filter = timelineFilter(o, sources, Date.now());
  if (o.follow && filter.heights !== undefined)
    throw new DevnetError(
      'BAD_FLAG',
      '--height with -f: a range of heights is known once the chain passed it; use --since or --grep to follow',
    );
  const width = Math.max(...sources.map((s) => s.length));
  const print = (entries: readonly TimelineEntry[]) => {
    for (const e of entries) out.write(`${o.json ? entryJson(e) : formatEntry(e, width)}\n`);
  };
  // Each source's text printed so far, to its last whole line: a read prints what came after it
  // (a line still being written waits for its end); a log that shrank (its container made again)
  // is read from its start.
  const read = new Map<string, number>();
  const fresh = async () =>
    mergeLogs(
      (await timelineTexts(d)).map(({ source, text }) => {
        const from = (read.get(source) ?? 0) <= text.length ? (read.get(source) ?? 0) : 0;
        const whole = text.lastIndexOf('\n') + 1;
        read.set(source, Math.max(from, whole));
        return parseLog(source, whole > from ? text.slice(from, whole) : '');
      }),
    );
  const first = filterTimeline(await fresh(), filter);
  print(o.tail === null ? first : first.slice(Math.max(0, first.length - o.tail)));
  while (o.follow && !o.signal.aborted) {
    await new Promise((r) => setTimeout(r, FOLLOW_MS));
    print(filterTimeline(await fresh(), filter));
  }
}
