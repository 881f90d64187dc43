/**
 * The node's consensus record on its disk (--record-consensus; the format: consensus/record,
 * docs/PROTOCOL.md "Consensus records"): JSON lines appended to <home>/consensus-record.jsonl,
 * bounded: past MAX_RECORD_BYTES the file becomes consensus-record.1.jsonl (the one before is
 * dropped) and a new one starts at the next height, so a record holds the last 8 to 16 MB of
 * heights. Lines are written in the background, a height at a time and at stop; a kill loses the
 * lines of the height it was in (a replay ends there). A write that fails is logged once and the
 * record stops: recording never stops the node.
 */
import { appendFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import type { RecordEntry } from '../consensus/record/format.js';
import type { RecordSink } from '../consensus/record/recorder.js';

export const RECORD_FILE = 'consensus-record.jsonl';
export const OLDER_RECORD_FILE = 'consensus-record.1.jsonl';
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

export class RecordFile implements RecordSink {
  private lines: string[] = [];
  private bytes = 0;
  private writing: Promise<void> = Promise.resolve();
  private broken = false;

  private constructor(
    private readonly home: string,
    private readonly logger: Logger,
    private readonly maxBytes: number,
  ) {}

  static async open(home: string, logger: Logger, maxBytes = MAX_RECORD_BYTES): Promise<RecordFile> {
    const f = new RecordFile(home, logger, maxBytes);
    f.bytes = (await stat(join(home, RECORD_FILE)).catch(() => null))?.size ?? 0;
    return f;
  }

  write(entry: RecordEntry): void {
    if (this.broken) return;
    // A height's lines go out together, when the next height starts.
    if (entry.k === 'height') this.flush(true);
    this.lines.push(JSON.stringify(entry));
  }

  /** What is buffered, appended (after what is being written); resolves when it is on disk. */
  flush(atHeight = false): Promise<void> {
    const text = this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
    this.lines = [];
    const rotate = atHeight && this.bytes >= this.maxBytes;
    if (rotate) this.bytes = 0;
    this.bytes += Buffer.byteLength(text);
    this.writing = this.writing.then(async () => {
      if (this.broken) return;
      try {
        if (rotate) await rename(join(this.home, RECORD_FILE), join(this.home, OLDER_RECORD_FILE));
        if (text !== '') await appendFile(join(this.home, RECORD_FILE), text);
      } catch (e) {
        this.broken = true;
        this.logger.error('the consensus record could not be written; recording stops', {
          error: (e as Error).message,
        });
      }
    });
    return this.writing;
  }
}
