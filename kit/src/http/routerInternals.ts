/**
 * The one place the kit reaches into a library's internals: the route @koa/router matched for a
 * request, which it leaves on the context as a field outside its typed API (the HTTP edge labels
 * each request's duration by it). Pinned by kit/tests/http/routerInternals.test.ts to the
 * version below: an upgrade fails that test with a message naming what to check.
 */
import type Koa from 'koa';

/** The version this was written against (kit/package.json pins it exactly). */
export const PINNED_ROUTER_VERSION = '15.7.0';

/** The route @koa/router matched for this request (its pattern, e.g. `/block/:height`); undefined when none did. */
export function matchedRoute(ctx: Koa.Context): string | undefined {
  return (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
}
