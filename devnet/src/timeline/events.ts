/**
 * The devnet's own operations as a log (`<home>/events.jsonl`, source `devnet` on the timeline):
 * each fault, partition, condition, upgrade, hold, save and scenario step the devnet did, one JSON
 * line in the form of chain-node's log lines (kit/log: time, level, msg, then fields; `op` names
 * the operation), so that `devnet logs --all` puts them on the same time axis as the nodes' lines.
 * Appended one line a write (O_APPEND: two processes of one devnet do not tear each other's lines);
 * a write that fails is said on stderr once and costs the operation nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createLogger, type LogFields, type Logger } from '@chain-devnet/kit/log';

export class DevnetEvents {
  private readonly log: Logger;
  private failed = false;

  constructor(
    readonly path: string,
    now: () => Date = () => new Date(),
  ) {
    this.log = createLogger({ level: 'info', now, write: (line) => this.append(line) });
  }

  /** `msg` happened (op: what the devnet did; the node, the step, what was asked). */
  note(op: string, msg: string, fields: LogFields = {}): void {
    this.log.info(msg, { op, ...fields });
  }

  /** `work`, noted when it starts (the time the timeline shows it at) and, at level warn, when it fails. */
  async during<T>(op: string, msg: string, fields: LogFields, work: () => Promise<T>): Promise<T> {
    this.note(op, msg, fields);
    try {
      return await work();
    } catch (e) {
      this.log.warn(`${msg} failed`, { op, ...fields, error: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  }

  /** The log so far ('' when the devnet did nothing yet). */
  text(): string {
    try {
      return readFileSync(this.path, 'utf8');
    } catch {
      return '';
    }
  }

  private append(line: string): void {
    try {
      appendFileSync(this.path, `${line}\n`);
    } catch (e) {
      if (this.failed) return;
      this.failed = true;
      process.stderr.write(
        `devnet: the events log ${this.path} cannot be written (${(e as Error).message})\n`,
      );
    }
  }
}
