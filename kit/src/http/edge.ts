/**
 * The edge of an HTTP JSON service built on Koa, shared by the node's RPC (rpc/app.ts) and the task
 * market (market/http): one middleware, first in the chain, that times every request and turns
 * every error into a `{"detail"}` answer (an HttpError with its status; anything else a 500
 * `Internal error`, logged, never a stack trace on the wire), answers Koa's bare 404 and 405 as
 * JSON, and closes lingering after an answer given before the request arrived in full.
 */
import type Koa from 'koa';
import type { Logger } from '../log/logger.js';
import { stringifyExact } from '../values/json.js';
import { HttpError } from './httpError.js';
import { bodyUnread, type LingerBounds, lingerUntilBodyRead } from './lingeringClose.js';
import { matchedRoute } from './routerInternals.js';

export function sendJson(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = stringifyExact(body);
}

/** Koa's bare 404 (no route) and 405 (not this method) as `{"detail"}` answers like the others. */
export function answerUnrouted(ctx: Koa.Context): void {
  if (ctx.status === 404 && ctx.body === undefined) sendJson(ctx, 404, { detail: 'Not found' });
  else if (ctx.status === 405 && (ctx.body === undefined || ctx.body === null || ctx.body === ''))
    sendJson(ctx, 405, {
      detail: `Method ${ctx.method} not allowed; allowed: ${ctx.response.get('Allow')}`,
    });
}

/**
 * Answered before the body arrived in full (413, a wrong Content-Type, 503…): close the
 * connection, but only once the client has sent its body (bounded), so it reads the answer.
 */
export function closeOnceBodyRead(ctx: Koa.Context, bounds: LingerBounds): void {
  if (!bodyUnread(ctx.req)) return;
  ctx.set('Connection', 'close');
  lingerUntilBodyRead(ctx.req, bounds);
}

/** Called once per request with its matched route (or `unmatched`), method, status and duration. */
export type ObserveRequest = (route: string, method: string, status: number, seconds: number) => void;

export function edgeMiddleware(
  logger: Logger,
  bounds: LingerBounds,
  observe: ObserveRequest,
): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      // HTTP/1.1 requires Host (RFC 9112, 3.2): refused here rather than by Node, whose 400 is empty.
      if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined)
        throw new HttpError(400, 'Missing Host header');
      await next();
      answerUnrouted(ctx);
    } catch (e) {
      if (e instanceof HttpError) {
        if (e.reason) ctx.set('X-Error-Reason', e.reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 300));
        for (const [name, value] of Object.entries(e.headers)) ctx.set(name, value);
        sendJson(ctx, e.status, { detail: e.detail });
        logger.debug('request refused', {
          method: ctx.method,
          path: ctx.path,
          status: e.status,
          detail: e.detail,
          reason: e.reason,
        });
      } else {
        logger.error('request failed', {
          method: ctx.method,
          path: ctx.path,
          error: e as Error,
          stack: (e as Error).stack,
        });
        sendJson(ctx, 500, { detail: 'Internal error' });
      }
    }
    closeOnceBodyRead(ctx, bounds);
    const route = matchedRoute(ctx) ?? 'unmatched';
    observe(route, ctx.method, ctx.status, Number(process.hrtime.bigint() - started) / 1e9);
  };
}

/** Koa's own error path, silenced: the edge middleware has answered; log what escapes it. */
export function silenceKoa(app: Koa, logger: Logger): void {
  app.silent = true;
  app.on('error', (e: Error) => logger.error('koa error', { error: e }));
}
