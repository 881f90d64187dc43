/**
 * The market's HTTP API (docs/MARKET.md), a Koa app testable through app.callback() with no
 * port opened. It shares the node's HTTP edge (the kit's http: every error a `{"detail"}`, never a
 * stack trace, lingering close after an early answer), its body reading (a bound, 413 past it)
 * and its HTTP server. POST /tasks is intake.ts; what the routes share, request.ts. Writes need the chain: while the market cannot reach its
 * node, or is still catching up, they are answered 503 with Retry-After; reads are served from
 * the market's own store.
 */
import { METHODS } from 'node:http';
import { edgeMiddleware, HttpError, sendJson, silenceKoa } from '@chain-devnet/kit/http';
import { Router } from '@koa/router';
import Koa from 'koa';
import type { ClaimAnswer, FailAnswer, MarketInfoAnswer } from '../answers.js';
import { DEFAULT_MARKET_HTTP, type MarketHttpDeps, type MarketHttpOptions } from './deps.js';
import { createTask } from './intake.js';
import { parseListQuery } from './query.js';
import { bad, MarketRequests, taskIdParam } from './request.js';
import { listView, taskView } from './views.js';

export { DEFAULT_MARKET_HTTP, type MarketHttpDeps, type MarketHttpOptions } from './deps.js';

export function createMarketApp(deps: MarketHttpDeps, opts: MarketHttpOptions = DEFAULT_MARKET_HTTP): Koa {
  const { service } = deps;
  const app = new Koa();
  const router = new Router({ methods: METHODS });

  const req = new MarketRequests(deps, opts);

  router.get('/market', (ctx) => {
    const b = service.books;
    sendJson(ctx, 200, {
      chain_id: b.chain_id,
      escrow_address: b.escrow,
      chain_time: b.chain_time,
      height: b.cursor,
      default_deadline_seconds: service.rules.defaultDeadlineSeconds,
      max_deadline_seconds: service.rules.maxDeadlineSeconds,
      claim_window_seconds: service.rules.claimWindowSeconds,
      max_claims_per_worker: service.rules.maxClaimsPerWorker,
    } satisfies MarketInfoAnswer);
  });

  router.post('/tasks', createTask(deps, opts, req));

  router.get('/tasks', async (ctx) => {
    const q = parseListQuery(ctx.query);
    if (typeof q === 'string') throw bad(q);
    const filter = {
      ...(q.status === undefined ? {} : { status: q.status }),
      ...(q.challenge_type === undefined ? {} : { challenge_type: q.challenge_type }),
    };
    sendJson(ctx, 200, listView(await service.list(filter, q.offset, q.limit), q.limit, q.offset));
  });

  router.get('/tasks/:task_id', async (ctx) => {
    const t = await req.found(taskIdParam(ctx.params.task_id));
    const payload = await service.payload(t.task_id);
    if (payload === null) throw new Error(`task ${t.task_id} has no payload in the store`);
    sendJson(ctx, 200, taskView(t, payload));
  });

  router.post('/tasks/:task_id/claim', async (ctx) => {
    const id = taskIdParam(ctx.params.task_id);
    const s = await req.statement(ctx, 'claim', id);
    const r = await service.claim(id, { address: s.worker_address, pub_key: s.pub_key });
    if (r.kind === 'not_found') throw new HttpError(404, 'Task not found');
    if (r.kind === 'conflict') throw new HttpError(409, r.detail);
    sendJson(ctx, 200, {
      task_id: id,
      status: 'in_progress',
      worker_address: r.task.worker!.address,
      claimed_at: r.task.worker!.claimed_at,
      claim_expires_at: r.task.worker!.expires_at,
    } satisfies ClaimAnswer);
  });

  router.post('/tasks/:task_id/fail', async (ctx) => {
    const id = taskIdParam(ctx.params.task_id);
    const s = await req.statement(ctx, 'failure', id);
    const r = await service.reportFailure(id, s.worker_address);
    if (r.kind === 'not_found') throw new HttpError(404, 'Task not found');
    if (r.kind === 'conflict') throw new HttpError(409, r.detail);
    sendJson(ctx, 200, { task_id: id, status: 'failed' } satisfies FailAnswer);
  });

  router.get('/metrics', async (ctx) => {
    ctx.status = 200;
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });

  app.use(
    edgeMiddleware(deps.logger, opts, (route, method, status, seconds) =>
      deps.metrics.requestDuration.observe({ route, method, status: String(status) }, seconds),
    ),
  );
  app.use(router.routes());
  app.use(router.allowedMethods());
  silenceKoa(app, deps.logger);
  return app;
}
