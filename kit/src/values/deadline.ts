/**
 * A hard deadline around asynchronous work. The work gets an AbortSignal that fires at the
 * deadline, and the caller is released at the deadline whatever the work does with it: a
 * library that does not honour the signal at some step (a lock, a handshake) cannot hold the
 * caller past it. Work still pending then runs on; its outcome is dropped.
 */
export function withDeadline<T>(
  ms: number,
  message: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(message);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  let running: Promise<T>;
  try {
    running = work(controller.signal);
  } catch (e) {
    running = Promise.reject(e);
  }
  // A late failure of abandoned work is expected, not an unhandled rejection.
  running.catch(() => undefined);
  return Promise.race([running, deadline]).finally(() => clearTimeout(timer));
}
