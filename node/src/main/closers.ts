/**
 * One stack of closers for the composition root (what AsyncDisposableStack does; Node 20 has
 * none): each part pushes how to stop it as soon as it has started, and close() stops them in
 * reverse order of start, once, whether the node is stopping or failed half-way through its
 * start. A closer that throws does not keep the earlier parts from stopping; the first error is
 * thrown once all have run.
 */
export class CloserStack {
  /** Named for the error of a part that starts too late, and for readers of the composition root. */
  private readonly closers: { readonly name: string; readonly close: () => void | Promise<void> }[] = [];
  private closing: Promise<void> | null = null;

  /** Pushes how to stop the part `name` just started. */
  defer(name: string, close: () => void | Promise<void>): void {
    if (this.closing !== null) throw new Error(`${name} started while the node stops`);
    this.closers.push({ name, close });
  }

  /** Runs every closer, the last pushed first; a second call returns the first one's promise. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const failures: unknown[] = [];
      for (const { close } of [...this.closers].reverse()) {
        try {
          await close();
        } catch (e) {
          failures.push(e);
        }
      }
      if (failures.length > 0) throw failures[0];
    })();
    return this.closing;
  }
}
