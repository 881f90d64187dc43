/**
 * How much slower this machine runs now than the calm one the suite's few wall-clock bounds were
 * measured on: a fixed piece of CPU work timed (the median of 7, after a warm-up), against what it
 * took there. For a bound that must stay in wall time (a libp2p mesh forming, which no chain
 * height measures), so that it scales with a slower or busier runner instead of being tuned to one
 * machine. At least 1 (a faster machine keeps the bound), at most MAX_SLOWNESS.
 */

/** The work's median on the calm machine (2 cores, 2026-12-02, load average under 1): 5.5 ms. */
export const CALM_WORK_MS = 5.5;
/** A bound is never stretched more than this: a machine slower still is one to say so on. */
export const MAX_SLOWNESS = 8;

function work(): number {
  let x = 0;
  for (let i = 0; i < 5_000_000; i++) x = (x * 31 + i) | 0;
  return x;
}

/** The work's median in ms on this machine now. */
export function workMs(): number {
  let sink = work();
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    sink ^= work();
    runs.push(performance.now() - t);
  }
  // The result used, so that no engine drops the loop.
  if (sink === 0.5) throw new Error('unreachable');
  return runs.sort((a, b) => a - b)[3]!;
}

/** This machine's slowness now, from `measured` (default: timed here). */
export function slowness(measured: number = workMs()): number {
  return Math.min(MAX_SLOWNESS, Math.max(1, measured / CALM_WORK_MS));
}

/** `ms` stretched by the machine's slowness (measured once a process). */
export function scaledMs(ms: number): number {
  cached ??= slowness();
  return Math.round(ms * cached);
}
let cached: number | undefined;
