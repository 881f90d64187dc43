/** A record's JSON lines read back (format.ts), each line checked for an entry kind; a RecordError names the line. */
import { type RecordEntry, RecordError } from './format.js';

const KINDS = new Set([
  'height',
  'start',
  'proposal',
  'vote',
  'timeout',
  'rebroadcast',
  'resume',
  'valid',
  'built',
  'signed',
  'out',
]);

export function parseRecord(text: string, source: string): RecordEntry[] {
  const entries: RecordEntry[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      // The last line of a file written when its node was killed may be cut off: it is left out.
      if (i >= lines.length - 2) return;
      throw new RecordError(`${source}:${i + 1}: not JSON`);
    }
    const k = (e as { k?: unknown } | null)?.k;
    if (typeof k !== 'string' || !KINDS.has(k))
      throw new RecordError(
        `${source}:${i + 1}: no entry kind k (${KINDS.size} kinds: docs/PROTOCOL.md, "Consensus records")`,
      );
    entries.push(e as RecordEntry);
  });
  return entries;
}
