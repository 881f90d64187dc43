/**
 * A binary min-heap of (at, id) pairs: the market's deadlines and claim expiries, so that a block
 * finds the tasks it ends in O(k log n) for k due, not by a scan of every task. Entries are not
 * removed when a task moves on; whoever pops one checks it still holds (lazy deletion).
 */
export interface Due {
  readonly at: number;
  readonly id: string;
}

export class DueHeap {
  private readonly items: Due[] = [];

  get size(): number {
    return this.items.length;
  }

  push(d: Due): void {
    const a = this.items;
    a.push(d);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent]!.at <= d.at) break;
      a[i] = a[parent]!;
      i = parent;
    }
    a[i] = d;
  }

  /** Removes and returns every entry with `at` < `before`, earliest first. */
  popBefore(before: number): Due[] {
    const out: Due[] = [];
    while (this.items.length > 0 && this.items[0]!.at < before) out.push(this.pop());
    return out;
  }

  private pop(): Due {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && a[r]!.at < a[l]!.at ? r : l;
        if (a[c]!.at >= last.at) break;
        a[i] = a[c]!;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}
