/**
 * The load's pace: one clock of send slots under the rate, shared by every account, and the end
 * of the load (stopped, its count sent, or its duration over).
 */
import { now, pause } from '@chain-devnet/kit/wait';

export class Pacing {
  readonly started = now();
  private stopping = false;
  private remaining: number;
  private nextSlot = 0;

  constructor(
    private readonly o: { readonly rate?: number; readonly duration?: number; readonly count?: number },
  ) {
    this.remaining = o.count ?? Number.POSITIVE_INFINITY;
  }

  stop(): void {
    this.stopping = true;
  }

  over(): boolean {
    return (
      this.stopping ||
      this.remaining <= 0 ||
      (this.o.duration !== undefined && now() - this.started >= this.o.duration * 1000)
    );
  }

  /** The next send's time under the rate (shared by every account), waited for, and taken. */
  async turn(): Promise<boolean> {
    if (this.o.rate !== undefined) {
      const t = now();
      const at = Math.max(t, this.nextSlot);
      this.nextSlot = at + 1000 / this.o.rate;
      if (at > t) await pause(at - t);
    }
    if (this.over()) return false;
    this.remaining--;
    return true;
  }
}
