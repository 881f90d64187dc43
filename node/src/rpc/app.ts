/**
 * The RPC: a Koa app with the specification's endpoints, testable through app.callback()
 * with no port opened. Its routes are rpc/routes.ts's table (which the client reads too), one
 * handler each, in groups by kind (handlers/: the chain's reads, snapshots, submissions). Order of middleware: errors (first, so nothing escapes as a stack trace),
 * metrics, routes, then 404/405 as JSON. Every error body is {"detail": "..."}.
 */
import { METHODS } from 'node:http';
import { DEFAULT_RPC_OPTIONS, edgeMiddleware, silenceKoa } from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import { Router } from '@koa/router';
import Koa from 'koa';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { RpcBackend } from './backend.js';
import type { Handlers } from './handlers/handler.js';
import { netProbeHandlers, type TestOnlyRoutes } from './handlers/netProbe.js';
import { queryHandlers } from './handlers/queries.js';
import { snapshotHandlers } from './handlers/snapshots.js';
import { submissionHandlers } from './handlers/submissions.js';
import { notInitialized } from './refusals.js';
import { type RouteName, RPC_ROUTES, routeNames } from './routes.js';

export function createRpcApp(
  backend: RpcBackend,
  metrics: NodeMetrics,
  logger: Logger,
  opts = DEFAULT_RPC_OPTIONS,
  /** The test-only routes' parts (none: every test-only route answers 404 saying so). */
  testOnly: TestOnlyRoutes = { netProbe: null },
): Koa {
  const app = new Koa();
  // Every method Node parses counts as implemented, so that one no route has is a 405 with
  // Allow (or a 404 off the routes), not @koa/router's 501 for methods outside its short list.
  const router = new Router({ methods: METHODS });
  const ready = () => {
    if (!backend.ready) throw notInitialized();
    return backend.state;
  };

  const handlers: Handlers<RouteName> = {
    ...queryHandlers(backend, ready),
    ...snapshotHandlers(backend, ready),
    ...submissionHandlers(backend, ready, opts),
    ...netProbeHandlers(testOnly),
    metrics: async (ctx) => {
      ctx.status = 200;
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    },
  };
  // In the table's order: every route of rpc/routes.ts, which the client builds its URLs from.
  for (const name of routeNames())
    router.register(RPC_ROUTES[name].path, [RPC_ROUTES[name].method], handlers[name]);

  app.use(
    edgeMiddleware(logger, opts, (route, method, status, seconds) =>
      metrics.rpcDuration.observe({ route, method, status: String(status) }, seconds),
    ),
  );
  app.use(router.routes());
  app.use(router.allowedMethods());
  silenceKoa(app, logger);
  return app;
}
