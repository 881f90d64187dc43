/**
 * TEST ONLY (fault injection, lose_unsynced: disk/layer.ts): the chain store's writes made
 * without an fsync, held in memory in their order, whole batches, until the next synced write
 * (or until lose_unsynced is off) puts them on disk before it, as a lazy page cache would. Reads
 * see them; a SIGKILL loses them, a batch whole or not at all, so the store on disk after the
 * kill is the store as it was at some earlier batch: consistent, only older.
 */

export type StoreOp<S> =
  | { readonly type: 'put'; readonly sublevel: S; readonly key: string; readonly value: Uint8Array }
  | { readonly type: 'del'; readonly sublevel: S; readonly key: string };

export class HeldWrites<S> {
  private batches: StoreOp<S>[][] = [];
  private latest = new Map<S, Map<string, Uint8Array | null>>();

  get empty(): boolean {
    return this.batches.length === 0;
  }

  /** Holds one batch. */
  hold(ops: readonly StoreOp<S>[]): void {
    this.batches.push([...ops]);
    this.index(ops);
  }

  /** What a read of `key` finds held: its value, null when a held batch deleted it, undefined when nothing is held for it. */
  get(sublevel: S, key: string): Uint8Array | null | undefined {
    return this.latest.get(sublevel)?.get(key);
  }

  /** Every key of `sublevel` held, with its value (null: deleted). */
  entries(sublevel: S): [string, Uint8Array | null][] {
    return [...(this.latest.get(sublevel) ?? new Map<string, Uint8Array | null>()).entries()];
  }

  /** Every held batch's operations, oldest first, no longer held. */
  take(): StoreOp<S>[] {
    const ops = this.batches.flat();
    this.batches = [];
    this.latest = new Map();
    return ops;
  }

  /** Holds `ops` (what take gave, whose write failed) again, before what was held since. */
  restore(ops: readonly StoreOp<S>[]): void {
    if (ops.length === 0) return;
    this.batches.unshift([...ops]);
    this.latest = new Map();
    for (const b of this.batches) this.index(b);
  }

  private index(ops: readonly StoreOp<S>[]): void {
    for (const op of ops) {
      const m = this.latest.get(op.sublevel) ?? new Map<string, Uint8Array | null>();
      this.latest.set(op.sublevel, m);
      m.set(op.key, op.type === 'put' ? op.value : null);
    }
  }
}
