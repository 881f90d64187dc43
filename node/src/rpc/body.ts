/**
 * Reads a request body with a byte limit: past the limit the read stops and the answer is
 * 413, so a huge body costs the node nothing but the bytes read up to the limit.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './httpError.js';

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, `Request body too large: the limit is ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      // Stop reading but keep the socket: the 413 is answered, then the connection closes
      // (the edge sets Connection: close), so the unread rest of the body costs nothing.
      req.pause();
      throw new HttpError(413, `Request body too large: the limit is ${limit} bytes`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Parses JSON or throws the given 400. */
export function parseJson(body: Buffer, onError: (reason: string) => HttpError): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw onError(`body is not JSON: ${(e as Error).message}`);
  }
}
