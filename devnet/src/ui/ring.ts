/** A bounded list that forgets its oldest items: what keeps the panel's memory bounded however long it runs. */
export class Ring<T> {
  private items: T[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`ring capacity ${capacity}`);
  }

  push(...items: readonly T[]): void {
    this.items.push(...items.slice(-this.capacity));
    // Trimmed in one splice once it is a quarter over, not one shift per push.
    if (this.items.length > this.capacity + Math.ceil(this.capacity / 4))
      this.items.splice(0, this.items.length - this.capacity);
  }

  /** Oldest first, at most `capacity`. */
  toArray(): T[] {
    return this.items.slice(-this.capacity);
  }

  get size(): number {
    return Math.min(this.items.length, this.capacity);
  }

  last(): T | undefined {
    return this.items[this.items.length - 1];
  }

  includes(item: T): boolean {
    const i = this.items.lastIndexOf(item);
    return i >= 0 && i >= this.items.length - this.capacity;
  }
}
