/**
 * The HTTP side of a JSON client, shared by the node's RpcClient and the task market's client:
 * one request with a bounded wait, the answer's JSON read exactly (integers beyond 2^53 as
 * bigint), any status but 2xx an RpcError with the service's `{"detail"}` (and its Retry-After,
 * for a caller that is told to come back), and no answer at all (refused, reset, timed out) an
 * RpcUnreachableError naming the URL. Every answer is read up to a bound in bytes (the caller's
 * for its endpoint, else DEFAULT_MAX_ANSWER_BYTES), past which it is an RpcAnswerTooLargeError and
 * the rest is left unread: what a client reads is never the server's to size (issue 39: a source
 * streaming `/status` took `devnet up --fork` to 2.4 GB and a crash).
 */
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parseJsonExact } from '@chain-devnet/kit/values';
import { now, pause } from '@chain-devnet/kit/wait';

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

/**
 * The answer was longer than the bound of its endpoint: refused, the connection closed, the rest
 * never read. No service of this repository answers so much there; what did is not one of them.
 */
export class RpcAnswerTooLargeError extends Error {
  override readonly name = 'RpcAnswerTooLargeError';
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`${url}: the answer is longer than ${maxBytes} bytes, the most this endpoint's answer may be`);
  }
}

/**
 * The bound of an answer whose endpoint names none (a path without a method of its own, a
 * service's list): 32 MiB, far above any answer of the node or the market, far below what hurts.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** A Retry-After header's delay in milliseconds: whole seconds only (an HTTP date is not used here). */
export function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

/** One request as a transport carries it: the whole URL, the method, the headers, a JSON body. */
export interface HttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** A server's answer: its status, its bytes (at most the request's maxBytes) and its headers. */
export type HttpAnswer = { status: number; bytes: Uint8Array; headers: AnswerHeaders };

/**
 * How a request reaches its server: over node:http (NODE_HTTP, every client's default), or
 * into an app in this process (the simulation's nodes, which have no sockets). A transport fails
 * as the default does: no answer at all is an RpcUnreachableError.
 */
export type HttpTransport = (r: HttpRequest) => Promise<HttpAnswer>;

export class JsonHttpClient {
  constructor(
    readonly baseUrl: string,
    protected readonly timeoutMs = 10_000,
    /** Sent with every request (the panel's secret). */
    private readonly headers: Readonly<Record<string, string>> = {},
    /** How requests reach the server (default: node:http). */
    readonly transport: HttpTransport = NODE_HTTP,
  ) {}

  /**
   * Any JSON path, for what has no method of its own (an odd path a test sends on purpose); at
   * most `maxBytes` of answer.
   */
  async get<T>(path: string, maxBytes = DEFAULT_MAX_ANSWER_BYTES): Promise<T> {
    return parseJsonExact(await this.request('GET', path, undefined, maxBytes)) as T;
  }

  /** POSTs `body` as JSON and reads the JSON answer (at most `maxBytes` of it). */
  protected async post<T>(path: string, body: unknown, maxBytes = DEFAULT_MAX_ANSWER_BYTES): Promise<T> {
    return parseJsonExact(await this.request('POST', path, body, maxBytes)) as T;
  }

  /** The answer's text (at most `maxBytes` of it); an RpcError with the {detail} for any status but 2xx. */
  protected async request(
    method: string,
    path: string,
    body?: unknown,
    maxBytes = DEFAULT_MAX_ANSWER_BYTES,
  ): Promise<string> {
    const { bytes } = await this.requestBytes(method, path, body, maxBytes);
    return new TextDecoder().decode(bytes);
  }

  /**
   * `work` again after each 503 with Retry-After (a service that is busy or catching up and says
   * when to come back), as long as that wait ends within `withinMs` of the first try; past it (or
   * any other answer), the last error. A 503 without Retry-After is not asked again.
   */
  protected async whileBusy<T>(withinMs: number, work: () => Promise<T>): Promise<T> {
    const until = now() + withinMs;
    for (;;) {
      try {
        return await work();
      } catch (e) {
        const wait = e instanceof RpcError && e.status === 503 ? e.retryAfterMs : null;
        if (wait === null || now() + wait > until) throw e;
        await pause(wait);
      }
    }
  }

  /**
   * The answer's bytes and headers, at most `maxBytes` of them (more: an RpcAnswerTooLargeError,
   * the rest left unread); an RpcError with the {detail} for any status but 2xx.
   */
  protected async requestBytes(
    method: string,
    path: string,
    body: unknown,
    maxBytes: number,
  ): Promise<{ bytes: Uint8Array; headers: AnswerHeaders }> {
    const url = `${this.baseUrl}${path}`;
    const { status, bytes, headers } = await this.transport({
      url,
      method,
      headers: this.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: this.timeoutMs,
      maxBytes,
    });
    if (status < 200 || status > 299) {
      const text = new TextDecoder().decode(bytes);
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new RpcError(status, detail, url, retryAfterMs(headers.get('retry-after')));
    }
    return { bytes, headers };
  }
}

/** An answer's headers by name (lower case). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

/** The request's headers: the caller's, and a JSON body's type and length. */
function requestHeaders(extra: Readonly<Record<string, string>>, body: string | undefined) {
  return body === undefined
    ? extra
    : { ...extra, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
}

/** An answer's headers, read by name. */
function headersOf(headers: IncomingMessage['headers']): AnswerHeaders {
  return {
    get: (name) => {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
}

/** An answer's bytes, at most `maxBytes` of them (a longer one fails as soon as it is). */
function readAnswer(
  res: IncomingMessage,
  maxBytes: number,
  tooLong: () => Error,
  unreachable: (e: Error) => Error,
  fail: (e: Error) => void,
  done: (a: HttpAnswer) => void,
): void {
  if (Number(res.headers['content-length'] ?? Number.NaN) > maxBytes) {
    fail(tooLong());
    return;
  }
  const parts: Buffer[] = [];
  let length = 0;
  res.on('data', (part: Buffer) => {
    length += part.length;
    if (length > maxBytes) fail(tooLong());
    else parts.push(part);
  });
  res.on('error', (e) => fail(unreachable(e)));
  res.on('aborted', () => fail(unreachable(new Error('the answer was cut off'))));
  res.on('end', () =>
    done({
      status: res.statusCode ?? 0,
      bytes: new Uint8Array(Buffer.concat(parts, length)),
      headers: headersOf(res.headers),
    }),
  );
}

/**
 * The default transport: one HTTP exchange over node:http (node:https for an https URL), not fetch: fetch is undici,
 * whose first use in a process compiles its modules and its HTTP parser's WebAssembly, about
 * 0.1 s of a core in `devnet up` and in the panel while the nodes start (docs/BENCHMARKS.md,
 * "devnet up: where the time goes"). One deadline for the connection, the request and the whole
 * answer, on a referenced timer: a connection that a proxy accepts and then drops mid-response
 * (Docker's port forwarding while the container starts) fails, it does not hang or vanish. A
 * connection refused or reset, or a wait run out, is an RpcUnreachableError, the system's error its
 * cause (`cause.code`, ECONNREFUSED: the fork's source check reads it).
 *
 * Node's global agent keeps connections alive, and a server closes one that has been idle for its
 * keep-alive timeout (the node's: 5 s, as the agent's): a request written on a kept connection
 * just as the server closed it was reset (ECONNRESET, `socket hang up`) though the server never
 * read it, failing checks on a busy machine. Such a request is sent once more on a new connection,
 * as Node's documentation advises (`request.reusedSocket`); a reset of a new connection, or after
 * an answer began, is still an error.
 */
export const NODE_HTTP: HttpTransport = ({
  url,
  method,
  headers: extraHeaders,
  body,
  timeoutMs,
  maxBytes,
}) => {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered = false;
    let resent = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(e);
    };
    const done = (a: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const unreachable = (e: Error) =>
      new RpcUnreachableError(url, (e as NodeJS.ErrnoException).code ?? e.message, e);
    const tooLong = () => new RpcAnswerTooLargeError(url, maxBytes);
    const timer = setTimeout(
      () => fail(unreachable(new Error(`no answer within ${timeoutMs} ms`))),
      timeoutMs,
    );
    const send = () =>
      request(target, { method, headers: requestHeaders(extraHeaders, body) }, (res) => {
        answered = true;
        readAnswer(res, maxBytes, tooLong, unreachable, fail, done);
      });
    // A reset of a kept connection before any answer: sent once more on a new one (above).
    const sent = (r: ClientRequest): ClientRequest => {
      r.on('error', (e: NodeJS.ErrnoException) => {
        if (
          r.reusedSocket &&
          !answered &&
          !resent &&
          !settled &&
          (e.code === 'ECONNRESET' || e.code === 'EPIPE')
        ) {
          resent = true;
          req = sent(send());
        } else fail(unreachable(e));
      });
      r.end(body);
      return r;
    };
    let req = sent(send());
  });
};
