/**
 * The RPC's HTTP server around the Koa app: the one place its Node settings are made, shared
 * by the node and the tests that talk to it over a real socket (Node's HTTP parser included).
 *
 * Node answers some requests itself, before any app code runs, with an empty body: a request
 * its parser refuses (400, 431 for headers over 16 KiB, 413 for chunk extensions), an
 * expectation other than 100-continue (417), a request without Host (400); and it drops a
 * CONNECT without a word. Here each gets a `{"detail"}` answer like every other error, and the
 * connection then closes lingering (lingeringClose.ts), so the client can read it.
 */
import { createServer, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import { stringifyExact } from '../values/json.js';
import { discardUntilClosed } from './lingeringClose.js';
import type { RpcOptions } from './options.js';

/** Node's parser errors that are not a plain 400 (its own mapping, in _http_server.js). */
const PARSER_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const PARSER_ERROR_DETAIL: Readonly<Record<number, string>> = {
  400: 'Malformed HTTP request',
  408: 'Request timeout: the request did not arrive in time',
  413: 'Chunk extensions too large',
  431: 'Request header fields too large: the limit is 16 KiB',
};

/** A whole `{"detail"}` answer that closes the connection, as bytes for a raw socket. */
function rawAnswer(status: number, detail: string, extra: Record<string, string> = {}): string {
  const body = stringifyExact({ detail });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    ...extra,
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`;
}

export function createRpcServer(app: Koa, opts: RpcOptions): Server {
  const handle = app.callback();
  /** The answer in progress on each socket: the parser may fail while it is being written. */
  const answering = new WeakMap<Socket, ServerResponse>();
  const options = {
    // Missing Host is refused by the app (with a detail), not by Node (with an empty 400).
    requireHostHeader: false,
    // Bounds a request whose body stalls. Node 20 also never reports a malformed body of a
    // request that carries Upgrade headers (its parser then hides errors); such a request
    // ends here too, answered 408. Checked every second rather than Node's 30 s.
    requestTimeout: opts.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, opts.requestTimeoutMs),
  };
  const server = createServer(options, (req, res) => {
    answering.set(req.socket, res);
    handle(req, res);
  });
  server.keepAliveTimeout = 5_000;

  // An expectation we do not know is ignored, as RFC 9110 (10.1.1) allows: the request is
  // answered as usual (Node's default is an empty 417).
  server.on('checkExpectation', (req, res) => {
    answering.set(req.socket, res);
    handle(req, res);
  });

  const refused = new WeakSet<Socket>();
  const refuse = (socket: Socket, answer: string) => {
    refused.add(socket);
    socket.end(answer);
    discardUntilClosed(socket, opts);
  };

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports its error again for every later chunk: answer once.
    if (refused.has(socket)) return;
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // An answer already under way (a request answered before its body was read, whose body
    // then turned out malformed) is finished, not interrupted by a second one.
    if (answering.get(socket)?.headersSent) {
      refused.add(socket);
      socket.destroySoon();
      return;
    }
    const status = PARSER_ERROR_STATUS[err.code ?? ''] ?? 400;
    // llhttp's reason is a fixed text ("Invalid header value char"), never the request's bytes.
    const reason = (err as { reason?: unknown }).reason;
    const detail = PARSER_ERROR_DETAIL[status] ?? 'Malformed HTTP request';
    refuse(
      socket,
      rawAnswer(status, status === 400 && typeof reason === 'string' ? `${detail}: ${reason}` : detail),
    );
  });

  // Node drops a CONNECT it has no handler for; this server is no proxy.
  server.on('connect', (_req, socket: Socket) =>
    refuse(socket, rawAnswer(405, 'Method CONNECT not allowed', { Allow: 'GET, HEAD, POST' })),
  );
  return server;
}
