/**
 * The scheduler's events in order of due time, then of scheduling (`seq`): a binary heap, so that
 * taking the next event and adding one cost log n. A sorted array cost n for each (its shift and
 * its splice): at 100 validators the queue holds some ten thousand events, and that was most of a
 * run's time (docs/BENCHMARKS.md, "The simulation at scale"). The order is total (seq is unique),
 * so it is the sorted array's exactly and a seed's run is unchanged.
 */
export interface Queued {
  due: number;
  seq: number;
}

const before = (a: Queued, b: Queued) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

export class EventQueue<E extends Queued> {
  private readonly heap: E[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): E | undefined {
    return this.heap[0];
  }

  push(e: E): void {
    const h = this.heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(e, h[parent]!)) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = e;
  }

  pop(): E | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const child = r < h.length && before(h[r]!, h[l]!) ? r : l;
      if (!before(h[child]!, last)) break;
      h[i] = h[child]!;
      i = child;
    }
    h[i] = last;
    return top;
  }
}
