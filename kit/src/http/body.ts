/**
 * Reads a request body with a byte limit: past the limit the read stops and the answer is
 * 413, so a huge body costs the node nothing but the bytes read up to the limit (and those the
 * lingering close discards while the client finishes sending: lingeringClose.ts).
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './httpError.js';

const tooLarge = (limit: number) => new HttpError(413, `Request body too large: the limit is ${limit} bytes`);

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  // Events rather than `for await`: leaving a for-await loop early destroys the request and
  // with it the socket, and the 413 would never be written.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.pause();
      reject(tooLarge(limit));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    // The client went away mid-body: nobody reads the answer, but it is not the node's error.
    const onAborted = () => {
      stop();
      reject(new HttpError(400, 'Request body incomplete: the connection closed before its end'));
    };
    const onError = onAborted;
    if (req.destroyed) return onAborted();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** Parses JSON or throws the given 400. */
export function parseJson(body: Buffer, onError: (reason: string) => HttpError): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw onError(`body is not JSON: ${(e as Error).message}`);
  }
}
