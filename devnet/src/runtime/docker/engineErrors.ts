/** The engine's answers that are not failures to the runtimes: a thing not there (404), or there already or in use (409). */
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
