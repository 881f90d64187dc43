/**
 * One request to a Prometheus HTTP API (global fetch): its `data`, or an error that says what
 * Prometheus (or the network) answered. The dashboard checks and the panel's charts use it.
 */

interface ApiAnswer {
  status: 'success' | 'error';
  data?: unknown;
  error?: string;
  errorType?: string;
}

/** A sample as Prometheus writes it: [unix seconds, value as text ("NaN" included)]. */
export type PromSample = [number, string];

/** `/api/v1/query` data of a vector: one sample per series. */
export interface PromVector {
  readonly resultType: 'vector';
  readonly result: readonly { readonly metric: Record<string, string>; readonly value: PromSample }[];
}

/** `/api/v1/query_range` data: every series with its samples. */
export interface PromMatrix {
  readonly resultType: 'matrix';
  readonly result: readonly {
    readonly metric: Record<string, string>;
    readonly values: readonly PromSample[];
  }[];
}

export async function prometheusApi(url: string, timeoutMs: number): Promise<{ data?: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: ApiAnswer;
  try {
    body = JSON.parse(text) as ApiAnswer;
  } catch {
    throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  }
  if (body.status !== 'success')
    throw new Error(`${body.errorType ?? `HTTP ${res.status}`}: ${body.error ?? text}`);
  return body;
}
