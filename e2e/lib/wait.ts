/**
 * Bounded waiting. Nothing in the suite sleeps for a fixed time: it polls a condition until it
 * holds or a bound derived from the chain ("within N blocks", scaled by the block time and the
 * number of nodes) runs out, and then fails saying what it waited for and what it saw last.
 */

export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Polls `probe` until it returns something other than undefined/null/false. `probe` may throw
 * (a node restarting): the last error is reported if the bound runs out. `seen` describes the
 * latest observation for the failure message.
 */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined | null | false>,
  opts: { pollMs?: number; seen?: () => string } = {},
): Promise<T> {
  const started = Date.now();
  const deadline = started + timeoutMs;
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
    await pause(opts.pollMs ?? 100);
  }
  const seen = opts.seen?.();
  throw new TimeoutError(
    `timed out after ${Math.round(timeoutMs / 100) / 10} s waiting for ${what}` +
      (seen ? `; last seen: ${seen}` : '') +
      (lastError ? `; last error: ${(lastError as Error).message}` : ''),
  );
}
