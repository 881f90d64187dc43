/**
 * Whether the node's disk takes its writes: the writers (the chain store's commits, the
 * priv-validator's files) report each failed and each good write here, and it says so once in
 * the log ("disk full: …" when a part first fails, "disk writable again" when it first succeeds
 * after) and in GET /status (`disk`, docs/PROTOCOL.md "Disk faults"). While a part fails the node
 * commits and signs nothing (a signature whose record failed is withheld: home/privValidator.ts;
 * a block whose write failed is not committed, and is tried again on the ticker: the consensus
 * driver, block sync).
 */
import type { Logger } from '@chain-devnet/kit/log';
import { describeWriteFailure } from './errors.js';

/** The part of the node whose write failed. */
export type DiskPart = 'store' | 'priv-validator';

export interface DiskState {
  readonly writable: boolean;
  /** The first failure's line ("disk full: ENOSPC: …"); null while writable. */
  readonly error: string | null;
  /** The parts whose last write failed. */
  readonly failing: readonly DiskPart[];
  /** When the first of them failed (ms since the epoch); null while writable. */
  readonly since: number | null;
}

export class DiskHealth {
  private readonly failures = new Map<DiskPart, { line: string; at: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  failed(part: DiskPart, e: unknown): void {
    if (this.failures.has(part)) return;
    const line = describeWriteFailure(e);
    this.failures.set(part, { line, at: this.now() });
    this.logger.error(line, {
      part,
      meanwhile: 'the node commits and signs nothing until its writes succeed; it tries again',
    });
  }

  succeeded(part: DiskPart): void {
    const failure = this.failures.get(part);
    if (failure === undefined) return;
    this.failures.delete(part);
    this.logger.info('disk writable again', { part, failed_ms: this.now() - failure.at });
  }

  get state(): DiskState {
    const all = [...this.failures.entries()].sort((a, b) => a[1].at - b[1].at);
    const first = all[0];
    return {
      writable: first === undefined,
      error: first?.[1].line ?? null,
      failing: all.map(([part]) => part),
      since: first?.[1].at ?? null,
    };
  }
}
