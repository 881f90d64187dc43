/**
 * The HTTP side of a JSON client, shared by the node's RpcClient and the task market's client:
 * one request with a bounded wait, the answer's JSON read exactly (integers beyond 2^53 as
 * bigint), any status but 2xx an RpcError with the service's `{"detail"}` (and its Retry-After,
 * for a caller that is told to come back), and no answer at all (refused, reset, timed out) an
 * RpcUnreachableError naming the URL.
 */
import { parseJsonExact } from '../util/jsonParse.js';

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly url: string,
    /** The answer's Retry-After in milliseconds (delay-seconds only), or null without one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`${url}: HTTP ${status} ${detail}`);
  }
}

/** The service gave no answer: the connection was refused or reset, or the wait ran out. */
export class RpcUnreachableError extends Error {
  override readonly name = 'RpcUnreachableError';
  constructor(
    readonly url: string,
    /** The system's code when there is one (ECONNREFUSED, ECONNRESET, …), else the reason in words. */
    readonly reason: string,
    cause: unknown,
  ) {
    super(/^[A-Z_]+$/.test(reason) ? `${url}: no answer (${reason})` : `${url}: ${reason}`, { cause });
  }
}

/** Why fetch got no answer: the system's code of its cause (undici's "fetch failed"), else the message. */
function noAnswer(url: string, e: unknown): RpcUnreachableError {
  const cause = (e as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  // The cause kept as fetch gave it: callers that read `cause.code` (the fork's source check) still can.
  return new RpcUnreachableError(url, code ?? (e as Error).message, cause ?? e);
}

/** A Retry-After header's delay in milliseconds: whole seconds only (an HTTP date is not used here). */
export function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

export class JsonHttpClient {
  constructor(
    readonly baseUrl: string,
    protected readonly timeoutMs = 10_000,
  ) {}

  /** Any JSON path, for what has no method of its own (an odd path a test sends on purpose). */
  async get<T>(path: string): Promise<T> {
    return parseJsonExact(await this.request('GET', path)) as T;
  }

  /** POSTs `body` as JSON and reads the JSON answer. */
  protected async post<T>(path: string, body: unknown): Promise<T> {
    return parseJsonExact(await this.request('POST', path, body)) as T;
  }

  /** The answer's text; an RpcError with the {detail} for any status but 2xx. */
  protected async request(method: string, path: string, body?: unknown): Promise<string> {
    const { bytes } = await this.requestBytes(method, path, body);
    return new TextDecoder().decode(bytes);
  }

  /**
   * The answer's bytes and headers, at most `maxBytes` of them (more: an error, the rest left
   * unread); an RpcError with the {detail} for any status but 2xx.
   */
  protected async requestBytes(
    method: string,
    path: string,
    body?: unknown,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<{ bytes: Uint8Array; headers: Headers }> {
    const url = `${this.baseUrl}${path}`;
    // A referenced timer, not AbortSignal.timeout (whose timer is unreferenced): a connection
    // that a proxy accepts and then drops mid-response (Docker's port forwarding while the
    // container starts) can leave the body read pending with nothing else keeping the process
    // alive, and the caller would vanish without an error.
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`no answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const init: RequestInit = { method, signal: abort.signal };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    let res: Response;
    let bytes: Uint8Array;
    try {
      res = await fetch(url, init).catch((e: unknown) => {
        throw noAnswer(url, e);
      });
      bytes = await readBounded(res, maxBytes, url);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    if (!res.ok) {
      const text = new TextDecoder().decode(bytes);
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new RpcError(res.status, detail, url, retryAfterMs(res.headers.get('retry-after')));
    }
    return { bytes, headers: res.headers };
  }
}

/** A response's body, refused once it passes `maxBytes` (a declared length over it: before reading). */
async function readBounded(res: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const tooLong = () => new Error(`${url}: the answer is longer than ${maxBytes} bytes`);
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw tooLong();
  if (res.body === null) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const part of res.body) {
    length += part.length;
    if (length > maxBytes) throw tooLong();
    parts.push(part);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
