/**
 * The one bounded polling wait: whatever drives nodes (the RPC client, the devnet, tests,
 * benchmarks, the e2e suite) waits for something by polling a probe until it gives a value or a
 * bound runs out, never by sleeping a fixed time and hoping. A wait that runs out fails saying
 * what it waited for, what it saw last, and the probe's last error.
 */

/**
 * The clock every wait of the process reads and sleeps on: the machine's, unless a simulation
 * installs its virtual one (the devnet's testkit on `--runtime sim`), so that the same waits of a
 * test move simulated time instead of the wall's, one sleep at a time.
 */
export interface WaitClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves `ms` later on this clock. */
  sleep(ms: number): Promise<void>;
}

export const WALL_CLOCK: WaitClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

let clock: WaitClock = WALL_CLOCK;

/** Makes `c` the clock of every wait of the process; the returned function puts the one before back. */
export function useWaitClock(c: WaitClock): () => void {
  const before = clock;
  clock = c;
  return () => {
    clock = before;
  };
}

/** Now, on the clock of the waits (the wall's, or an installed simulation's). */
export const now = (): number => clock.now();

/** Resolves `ms` later on the clock of the waits. */
export const pause = (ms: number): Promise<void> => clock.sleep(ms);

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

export interface WaitOptions {
  /** Between probes; default 100 ms. */
  readonly pollMs?: number;
  /** The latest observation, for the failure message ("validator-1 at 7, validator-2 at 5"). */
  readonly seen?: () => string;
}

/**
 * Polls `probe` until it returns something other than undefined, null or false, and returns
 * that. The probe may throw (a node restarting): polling goes on, and the last error is reported
 * if the bound runs out (a later probe that answers clears it). The probe runs at least once,
 * also with a bound of 0.
 */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined | null | false>,
  opts: WaitOptions = {},
): Promise<T> {
  const deadline = now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
      lastError = null;
    } catch (e) {
      lastError = e;
    }
    if (now() >= deadline) break;
    await pause(Math.min(opts.pollMs ?? 100, Math.max(0, deadline - now())));
  }
  const seen = opts.seen?.();
  throw new TimeoutError(
    `timed out after ${Math.round(timeoutMs / 100) / 10} s waiting for ${what}` +
      (seen ? `; last seen: ${seen}` : '') +
      (lastError === null ? '' : `; last error: ${(lastError as Error).message ?? String(lastError)}`),
  );
}

/** `waitFor`, but a bound that runs out gives null instead of an error (for a caller with a fallback). */
export async function waitForOrNull<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined | null | false>,
  opts: WaitOptions = {},
): Promise<T | null> {
  try {
    return await waitFor(what, timeoutMs, probe, opts);
  } catch (e) {
    if (e instanceof TimeoutError) return null;
    throw e;
  }
}
