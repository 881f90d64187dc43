/** The engine's answers that are not failures to the runtimes: a thing not there (404), or there already or in use (409); and a freeze the kernel did not finish, tried again. */
export function isNotFound(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 404;
}

export function isConflict(e: unknown): boolean {
  return (e as { statusCode?: number }).statusCode === 409;
}

/** What the engine answers, or null when the thing asked about is not there. */
export async function orNull<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
}

/** How often a freeze the kernel did not finish is tried, and how long between tries. */
const FREEZE_TRIES = 4;
const FREEZE_RETRY_MS = 500;

/**
 * `docker pause`, tried again while runc answers 'unable to freeze': the cgroup freezer gives up
 * when the container's processes do not stop in time, which a loaded machine makes happen (a
 * fresh-clone CI run's faults-under-load on docker failed 'OCI runtime pause failed: unable to
 * freeze'). Any other error, and the last freeze failure, are thrown as they are.
 */
export async function pauseFrozen(pause: () => Promise<unknown>, wait = FREEZE_RETRY_MS): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await pause();
      return;
    } catch (e) {
      if (i >= FREEZE_TRIES || !/unable to freeze/i.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
