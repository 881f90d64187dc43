/**
 * HTTP/1.1 by hand over a TCP socket, for tests that must send what no HTTP client sends (odd
 * framing, repeated or huge headers, bodies written before reading) and see exactly what the
 * server answered.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Header names in lowercase; every value of each. */
  readonly headers: ReadonlyMap<string, readonly string[]>;
  readonly body: Buffer;
}

export function socketTo(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Half-open allowed, as in most clients: the server's FIN does not end our sending.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true }, () =>
      resolve(socket),
    );
    socket.once('error', reject);
  });
}

/** Writes `data`, waiting for the socket to take it; false when the socket closed first. */
export function writeAll(socket: Socket, data: string | Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(false);
    const onClose = () => resolve(false);
    socket.once('close', onClose);
    socket.write(data, (e) => {
      socket.off('close', onClose);
      resolve(!e);
    });
  });
}

export interface RawOutcome {
  /** Everything the server sent. */
  answer: string;
  /** The error of a write, if the server reset the connection while the body was being sent. */
  writeError: string | null;
  /** How the connection ended once read: 'end' (the server closed it cleanly) or the error. */
  ended: string;
}

/** Reads what is left until the server ends the connection (at most 10 s). */
function readToEnd(socket: Socket, outcome: RawOutcome): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      outcome.ended = 'still open after 10 s';
      socket.destroy();
    }, 10_000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      outcome.answer += d;
    });
    socket.on('end', () => {
      outcome.ended = 'end';
      socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      outcome.ended = e.code ?? e.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(outcome);
    });
    socket.resume();
  });
}

/** Like a simple client: sends the head and the whole body, and only then reads the answer. */
export async function sendAllThenRead(url: string, head: string, body: Buffer): Promise<RawOutcome> {
  const socket = await socketTo(url);
  const outcome: RawOutcome = { answer: '', writeError: null, ended: '' };
  socket.on('error', (e: NodeJS.ErrnoException) => {
    outcome.writeError ??= e.code ?? e.message;
  });
  socket.pause(); // nothing is read before the body is sent
  let sent = await writeAll(socket, head);
  for (let at = 0; sent && at < body.length; at += 64 * 1024)
    sent = await writeAll(socket, body.subarray(at, at + 64 * 1024));
  if (!sent) outcome.writeError ??= 'closed while sending';
  return readToEnd(socket, outcome);
}

/** A request's bytes in chunked transfer coding, in pieces of `size`, with the last chunk. */
export function chunkedBody(body: Buffer, size = 64 * 1024): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

type Parsed = { response: RawResponse; informational: boolean; used: number } | null;

/** The first response in `buf`, or null while it is incomplete (`ended`: the server closed). */
export function parseResponse(buf: Buffer, head: boolean, ended: boolean): Parsed {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
  const status = Number(m[1]);
  const headers = new Map<string, string[]>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const start = end + 4;
  const done = (body: Buffer, used: number): Parsed => ({
    response: { status, headers, body },
    informational: status < 200,
    used,
  });
  if (status < 200 || status === 204 || status === 304 || head) return done(Buffer.alloc(0), start);
  const length = headers.get('content-length')?.[0];
  if (length !== undefined) {
    const n = Number(length);
    return buf.length >= start + n ? done(buf.subarray(start, start + n), start + n) : null;
  }
  if (/chunked/i.test(headers.get('transfer-encoding')?.[0] ?? '')) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const eol = buf.indexOf('\r\n', at);
      if (eol < 0) return null;
      const size = Number.parseInt(buf.subarray(at, eol).toString('latin1'), 16);
      if (size === 0) return buf.length >= eol + 4 ? done(Buffer.concat(parts), eol + 4) : null;
      if (buf.length < eol + 2 + size + 2) return null;
      parts.push(buf.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
  }
  return ended ? done(buf.subarray(start), buf.length) : null;
}

export type Exchange =
  | { readonly answered: true; readonly response: RawResponse }
  | { readonly answered: false; readonly why: string };

/**
 * Sends `request` as it is and reads the first final response (1xx skipped), then closes.
 * `head`: the request is a HEAD (its answer has no body).
 */
export async function exchange(
  url: string,
  request: Buffer,
  head: boolean,
  timeoutMs = 10_000,
): Promise<Exchange> {
  const socket = await socketTo(url);
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let settled = false;
    const settle = (x: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(x);
    };
    const timer = setTimeout(
      () => settle({ answered: false, why: `no answer in ${timeoutMs} ms` }),
      timeoutMs,
    );
    const tryParse = (ended: boolean) => {
      try {
        for (;;) {
          const parsed = parseResponse(buf, head, ended);
          if (parsed === null) break;
          buf = buf.subarray(parsed.used);
          if (!parsed.informational) return settle({ answered: true, response: parsed.response });
        }
      } catch (e) {
        return settle({ answered: false, why: (e as Error).message });
      }
      if (ended)
        settle({
          answered: false,
          why: `closed after ${buf.length} bytes: ${JSON.stringify(buf.toString('latin1'))}`,
        });
    };
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('error', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    // The server may answer (and close) before it has read everything: a failed write is not
    // the outcome, the answer is.
    socket.write(request, () => undefined);
  });
}
