/**
 * Lingering close (nginx's `lingering_close`): when the RPC answers before a request has fully
 * arrived (413 for a body over the limit, 400 for a wrong Content-Type, 503 while the state
 * loads, a malformed request…), it answers with `Connection: close`, half-closes (FIN after
 * the answer) and keeps reading and discarding what the client still sends, for a bounded time
 * and byte count, before it closes the socket.
 *
 * Why: Node closes a `Connection: close` socket as soon as the answer is written
 * (`socket.destroySoon()` in its HTTP server). A client still sending its body then meets a
 * reset on its next write (closing a socket with unread bytes sends a RST), and a client that
 * reads the answer only once it has sent everything (Python's urllib, most simple clients)
 * never sees the 413 and its `{"detail"}`. Reading the rest lets the client finish sending and
 * read the answer; the bounds keep a client that never stops sending from costing more.
 */
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

export interface LingerBounds {
  /** Longest time a socket lingers after an early answer, in milliseconds. */
  readonly lingerMs: number;
  /** Most bytes read and discarded after an early answer. */
  readonly lingerBytes: number;
}

/** FIN after what is already queued, then the socket is destroyed (Node's own destroySoon). */
function closeGracefully(socket: Socket): void {
  Socket.prototype.destroySoon.call(socket);
}

/**
 * Reads and discards what arrives from now on through `source` (the socket itself, or the
 * request whose body Node's parser still delivers): closes the socket gracefully once the
 * client has ended its side, and at once when a bound is reached.
 */
export function discardUntilClosed(socket: Socket, bounds: LingerBounds, source: Readable = socket): void {
  let discarded = 0;
  const cutOff = () => socket.destroy();
  const timer = setTimeout(cutOff, bounds.lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  source.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bounds.lingerBytes) cutOff();
  });
  socket.once('end', () => closeGracefully(socket));
  source.resume();
}

/**
 * Whether the answer to `req` must close the connection lingering: its body has not fully
 * arrived. (False for a request not on a real socket, e.g. one injected in a test.)
 */
export function bodyUnread(req: IncomingMessage): boolean {
  return req.socket instanceof Socket && !req.complete && !req.socket.destroyed;
}

/**
 * Discards the rest of `req`'s body from now on and closes its socket once the answer is
 * written (Node calls `destroySoon` then, for a `Connection: close` answer) and the body has
 * ended, or when a bound is reached. The caller sets `Connection: close` on the answer.
 */
export function lingerUntilBodyRead(req: IncomingMessage, bounds: LingerBounds): void {
  const socket = req.socket;
  let answered = false;
  let bodyEnded = false;
  // Replaces, for this socket only, Node's close-after-answer: the answer and then our FIN go
  // out, and the socket stays open for reading until the body has ended or a bound is reached.
  socket.destroySoon = () => {
    answered = true;
    if (bodyEnded) closeGracefully(socket);
    else socket.end();
  };
  req.once('end', () => {
    bodyEnded = true;
    if (answered) closeGracefully(socket);
  });
  // Counted on the request, not the socket: a 'data' listener on the socket would take it from
  // Node's parser, which may just have stopped reading it (the request's buffer was full), and
  // then nothing would start reading it again.
  discardUntilClosed(socket, bounds, req);
}
