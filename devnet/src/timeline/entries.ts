/**
 * One timeline of a devnet (`devnet logs --all`, docs/PROTOCOL.md "Timeline"): every node's log,
 * the market's services' and the devnet's own events (events.ts) as entries on one time axis. A
 * log is chain-node's JSON lines (kit/log: `time`, `level`, `msg`, then its fields); a line that is
 * not one (a runtime's own words, a stack a crash printed) is kept as an entry of level `text` at
 * the time of the line before it in the same log (of the first timed line, for lines before it),
 * so nothing written is lost and nothing is moved.
 */

/** The levels of the logs, in order; `text` is a line that is not a JSON entry. */
export const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type Level = (typeof LEVELS)[number];

export interface TimelineEntry {
  /** Milliseconds since the epoch: the line's `time`, or the line's before it. */
  readonly time: number;
  /** Whose log: a node's name, `devnet` (its operations), `market`, `market-worker`. */
  readonly source: string;
  readonly level: Level | 'text';
  readonly msg: string;
  /** The entry's fields but time, level and msg. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The height the entry names (its `height` field), or null. */
  readonly height: number | null;
  /** The line as the log has it. */
  readonly line: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The entries of one log's text, in its order (lines before its first timed one at that one's time). */
export function parseLog(source: string, text: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let last: number | null = null;
  let untimed = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line === '') continue;
    const e = parseLine(source, line, last ?? 0);
    if (e.level !== 'text') last = e.time;
    else if (last === null) untimed++;
    entries.push(e);
  }
  for (let i = 0; i < untimed && last !== null; i++) {
    const firstTimed = entries.find((e) => e.level !== 'text')!.time;
    entries[i] = { ...entries[i]!, time: firstTimed };
  }
  return entries;
}

function parseLine(source: string, line: string, before: number): TimelineEntry {
  let j: unknown = null;
  if (line.startsWith('{'))
    try {
      j = JSON.parse(line);
    } catch {
      j = null;
    }
  const time = isRecord(j) && typeof j.time === 'string' ? Date.parse(j.time) : Number.NaN;
  if (!isRecord(j) || Number.isNaN(time))
    return { time: before, source, level: 'text', msg: line, fields: {}, height: null, line };
  const { time: _t, level, msg, ...fields } = j;
  return {
    time,
    source,
    level: (LEVELS as readonly unknown[]).includes(level) ? (level as Level) : 'info',
    msg: typeof msg === 'string' ? msg : JSON.stringify(msg ?? ''),
    fields,
    height: typeof fields.height === 'number' && Number.isSafeInteger(fields.height) ? fields.height : null,
    line,
  };
}

/**
 * The logs' entries merged in time order; entries at the same millisecond keep their log's order
 * and the logs' order (the order `logs` lists them in), so a merge of the same logs is the same.
 */
export function mergeLogs(logs: readonly (readonly TimelineEntry[])[]): TimelineEntry[] {
  const all = logs.flatMap((entries, l) => entries.map((e, i) => ({ e, l, i })));
  all.sort((a, b) => a.e.time - b.e.time || a.l - b.l || a.i - b.i);
  return all.map((x) => x.e);
}
