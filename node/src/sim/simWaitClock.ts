/**
 * The waits' clock (kit/wait's WaitClock) on a simulation's virtual time, for a program that
 * drives simulated nodes as it would real ones (the devnet's testkit on `--runtime sim`): each
 * sleep is an event of the scheduler at its virtual due time, and while anything sleeps the
 * scheduler runs the network's events up to the next wake-up, then lets the woken code run (its
 * requests to the nodes take no virtual time) before it goes on. Nothing else moves the clock, so
 * a test's waits, polls and bounds are virtual: a test of ten minutes of chain time runs in
 * seconds, and runs the same way every time for its seed.
 */
import type { WaitClock } from '@chain-devnet/kit/wait';
import type { SimScheduler } from './scheduler.js';

export class SimWaitClock implements WaitClock {
  /** Each sleep not yet woken: what fails it if the network's events stop. */
  private readonly sleepers = new Set<(e: unknown) => void>();
  private woke = false;
  private pumping = false;
  /** What stopped the network's events (a defect of the simulation): every sleep after it fails. */
  private broken: unknown = null;

  constructor(private readonly scheduler: SimScheduler) {}

  now(): number {
    return this.scheduler.now;
  }

  sleep(ms: number): Promise<void> {
    if (this.broken !== null) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.sleepers.add(reject);
      this.scheduler.after(ms, () => {
        this.sleepers.delete(reject);
        this.woke = true;
        resolve();
      });
      void this.pump();
    });
  }

  /** The one loop that moves the clock, while something sleeps. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.sleepers.size > 0) {
        this.woke = false;
        await this.scheduler.run({ until: Number.MAX_SAFE_INTEGER, done: () => this.woke });
      }
    } catch (e) {
      this.broken = e;
      for (const fail of this.sleepers) fail(e);
      this.sleepers.clear();
    } finally {
      this.pumping = false;
    }
  }
}
