/**
 * TEST ONLY (fault injection): the disk fault layer, between the node's writers (the chain
 * store, the priv-validator's files) and the disk, set from <home>/disk_faults.json
 * (faults/diskFaults.ts). It is made only when the node runs with --fault-injection; without, the
 * writers hold null and go straight to the disk (nothing of this is in their path).
 *   - full: every write and fsync fails with DiskFullError (code ENOSPC, as the system's);
 *   - write_delay_ms / fsync_delay_ms: each write, and each fsync beside it, waits that long: the
 *     store's on the node's ticker (tests drive it), the priv-validator's blocking the thread, as
 *     a slow synchronous fsync does (its writes are synchronous: home/privValidator.ts);
 *   - lose_unsynced: what the writers hold back (store/heldWrites.ts, files.ts) until the next
 *     synced write, so that a SIGKILL loses it as a lazy page cache would (Jepsen's lazyfs).
 */
import type { Ticker } from '../util/ticker.js';
import { DiskFullError } from './errors.js';
import { type DiskFaults, NO_DISK_FAULTS } from './faults.js';

/** Blocks the thread for `ms` (a slow synchronous fsync); tests pass their own. */
export type Block = (ms: number) => void;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const blockThread: Block = (ms) => {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
};

export class DiskLayer {
  private faults: DiskFaults = NO_DISK_FAULTS;
  private seq = 0;
  private readonly listeners: ((f: DiskFaults) => void)[] = [];

  constructor(
    private readonly ticker: Ticker,
    private readonly block: Block = blockThread,
  ) {}

  get current(): DiskFaults {
    return this.faults;
  }

  /** Puts `f` in force; the listeners hear it (a writer flushes what it held once lose_unsynced is off). */
  set(f: DiskFaults): void {
    this.faults = f;
    for (const l of this.listeners) l(f);
  }

  onChange(listener: (f: DiskFaults) => void): void {
    this.listeners.push(listener);
  }

  /** Whether a write without an fsync is held back (lose_unsynced). */
  get holdsUnsynced(): boolean {
    return this.faults.loseUnsynced;
  }

  /** An asynchronous write (the store's, `synced` when it is fsynced): refused when full, else its delays on the ticker. */
  async write(synced: boolean): Promise<void> {
    const f = this.faults;
    if (f.full) throw new DiskFullError('write');
    const ms = f.writeDelayMs + (synced ? f.fsyncDelayMs : 0);
    if (ms > 0) await new Promise<void>((done) => this.ticker.schedule(`disk/write/${this.seq++}`, ms, done));
    if (this.faults.full) throw new DiskFullError('write');
  }

  /** A synchronous write (the priv-validator's): refused when full, else blocks for its delay. */
  writeSync(): void {
    if (this.faults.full) throw new DiskFullError('write');
    this.block(this.faults.writeDelayMs);
  }

  /** A synchronous fsync: refused when full (a delayed allocation fails there), else blocks for its delay. */
  fsyncSync(): void {
    if (this.faults.full) throw new DiskFullError('fsync');
    this.block(this.faults.fsyncDelayMs);
  }
}
