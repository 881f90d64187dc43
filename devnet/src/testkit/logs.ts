/**
 * A node's log as the runtime keeps it (the process's log file, the container's log): lines,
 * a mark of how far it went (to look only at what comes after), and line matching by text or
 * regular expression. The node writes one JSON object per line; a matcher sees the whole line.
 */
import { TestkitUsageError } from './errors.js';

/** How far each node's log went (node name -> lines so far): the lines after it are "since the marks". */
export type LogMarks = Readonly<Record<string, number>>;

export interface LineMatch {
  /** The line contains this text… */
  readonly contains?: string;
  /** …or matches this regular expression (a string is its source, no flags). */
  readonly matches?: string | RegExp;
}

export interface LineMatcher {
  readonly test: (line: string) => boolean;
  readonly describe: string;
}

export function lineMatcher(m: LineMatch): LineMatcher {
  if ((m.contains === undefined) === (m.matches === undefined))
    throw new TestkitUsageError('a log match takes either contains or matches');
  if (m.contains !== undefined) {
    const text = m.contains;
    return { test: (l) => l.includes(text), describe: `containing ${JSON.stringify(text)}` };
  }
  let re: RegExp;
  try {
    // Without g and y, whose lastIndex would make test() depend on the line before.
    re =
      m.matches instanceof RegExp
        ? new RegExp(m.matches.source, m.matches.flags.replace(/[gy]/g, ''))
        : new RegExp(m.matches!);
  } catch (e) {
    throw new TestkitUsageError(`matches is not a regular expression: ${(e as Error).message}`);
  }
  return { test: (l) => re.test(l), describe: `matching ${re}` };
}

/** Lines of a log text (no empty last line). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
