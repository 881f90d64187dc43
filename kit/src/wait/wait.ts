/**
 * The one bounded polling wait: whatever drives nodes (the RPC client, the devnet, tests,
 * benchmarks, the e2e suite) waits for something by polling a probe until it gives a value or a
 * bound runs out, never by sleeping a fixed time and hoping. A wait that runs out fails saying
 * what it waited for, what it saw last, and the probe's last error.
 */

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
      lastError = null;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) break;
    await pause(Math.min(opts.pollMs ?? 100, Math.max(0, deadline - Date.now())));
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
