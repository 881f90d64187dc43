/**
 * Follows a node's log through the runtime (its log file, or the engine's container log), as
 * `devnet logs -f` does, and hands over complete lines. When the runtime's stream ends (a
 * container stopped) it attaches again a second later, asking for the last lines again: those
 * up to the last line it handed over are skipped, so a restart neither repeats nor loses lines
 * (a node's JSON lines carry the time in milliseconds, so a line is found again by its text).
 */
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Runtime } from '../runtime/runtime.js';
import type { Ring } from './ring.js';

/** Longer lines are cut (a node's JSON lines are a few hundred bytes). */
export const MAX_LINE_CHARS = 2_000;
/** Lines asked for again on each re-attach, to find where the last stream ended. */
const RESUME_TAIL = 100;

/** Splits written bytes into lines; `onLines` gets each chunk's complete lines. */
export class LineSplitter extends Writable {
  private partial = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly onLines: (lines: string[]) => void) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (e?: Error | null) => void): void {
    const parts = (this.partial + this.decoder.decode(chunk, { stream: true })).split('\n');
    this.partial = parts.pop() ?? '';
    // A line without its end is not kept past the bound either.
    if (this.partial.length > MAX_LINE_CHARS * 2) this.partial = this.partial.slice(0, MAX_LINE_CHARS);
    const lines = parts
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
      .filter((l) => l !== '')
      .map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
    if (lines.length > 0) this.onLines(lines);
    done();
  }
}

export interface FollowOptions {
  readonly runtime: () => Runtime;
  readonly node: string;
  /** The node's kept lines: what a re-attach compares with. */
  readonly kept: Ring<string>;
  /** Lines asked for on the first attach. */
  readonly tail: number;
  readonly onLines: (lines: string[]) => void;
  readonly signal: AbortSignal;
}

/**
 * The lines of a re-attach that are new: those after the last line kept (the tail asked for ends
 * with the log's last lines, so when that line is not among them, all of them came after it).
 * Null while the answer may still hold it (fewer lines than the tail asked for have come).
 */
export function freshAfterResume(
  pending: readonly string[],
  lastKept: string | undefined,
  complete: boolean,
): string[] | null {
  if (lastKept === undefined) return [...pending];
  const i = pending.lastIndexOf(lastKept);
  if (i !== -1) return pending.slice(i + 1);
  return complete || pending.length >= RESUME_TAIL ? [...pending] : null;
}

/** Runs until the signal aborts. */
export async function followLog(o: FollowOptions): Promise<void> {
  let first = true;
  while (!o.signal.aborted) {
    // After a re-attach, the tail's lines up to the last one kept are the old stream's.
    let pending: string[] | null = first ? null : [];
    const lastKept = o.kept.last();
    const hand = (lines: string[]) => {
      if (lines.length > 0) o.onLines(lines);
    };
    const splitter = new LineSplitter((lines) => {
      if (pending === null) return hand(lines);
      pending.push(...lines);
      const fresh = freshAfterResume(pending, lastKept, false);
      if (fresh !== null) {
        pending = null;
        hand(fresh);
      }
    });
    // A signal per attach: whatever a runtime hangs on it goes with it, not onto the long-lived one.
    const attach = new AbortController();
    const stop = () => attach.abort();
    o.signal.addEventListener('abort', stop, { once: true });
    try {
      await o
        .runtime()
        .node(o.node)
        .logs({ follow: true, tail: first ? o.tail : RESUME_TAIL, signal: attach.signal }, splitter);
    } catch {
      // No log yet (a node being added), or the engine refused: tried again below.
    } finally {
      o.signal.removeEventListener('abort', stop);
      attach.abort();
    }
    if (pending !== null) hand(freshAfterResume(pending, lastKept, true)!);
    first = false;
    await sleep(1_000, undefined, { signal: o.signal }).catch(() => undefined);
  }
}
