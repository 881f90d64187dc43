/**
 * The node's warnings and errors counted into chain_log_lines_total{level}: the composition root
 * wraps its logger (kit/log observedLogger) before anything logs, and the counter exists only once
 * the core's metrics do, so what came before is held and added then.
 */
import type { Counter } from 'prom-client';

type Level = 'warn' | 'error';

export class LogLineCount {
  private counter: Counter<'level'> | null = null;
  private readonly before: Record<Level, number> = { warn: 0, error: 0 };

  /** One line of `level` logged. */
  readonly seen = (level: Level): void => {
    if (this.counter === null) this.before[level]++;
    else this.counter.inc({ level });
  };

  /** Counts into `counter` from now on, with the lines seen before it. */
  attach(counter: Counter<'level'>): void {
    // Both series from the start (0 until a line comes), so a dashboard's rate has one.
    for (const level of ['warn', 'error'] as const) counter.inc({ level }, this.before[level]);
    this.counter = counter;
  }
}
