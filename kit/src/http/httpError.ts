/**
 * An error with its HTTP status and the `detail` the client sees. `reason` (optional) says more
 * for logs and the X-Error-Reason header, where the body's detail text is fixed by the
 * specification (e.g. exactly "Invalid transaction format"); `headers` go on the answer (e.g.
 * Retry-After on a 503).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly reason?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
  }
}
