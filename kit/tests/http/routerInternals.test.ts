/**
 * Pins the kit's one use of a library's internals (src/http/routerInternals.ts): @koa/router at the
 * version it was written against, leaving the route it matched on the context. An upgrade fails
 * here naming what to check, not later as request durations labelled by nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Router } from '@koa/router';
import Koa from 'koa';
import inject from 'light-my-request';
import { matchedRoute, PINNED_ROUTER_VERSION } from '../../src/http/routerInternals.js';

/** The version of `name` as installed (the nearest node_modules up from this file; its exports hide package.json). */
function installedVersion(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
    dir = dirname(dir);
  }
}

const WHAT_TO_CHECK =
  'src/http/routerInternals.ts reaches into its internals: check the use against the new version, then update PINNED_ROUTER_VERSION';

describe("@koa/router's internals (src/http/routerInternals.ts)", () => {
  it(`is the version the use was written against (${PINNED_ROUTER_VERSION})`, () => {
    const installed = installedVersion('@koa/router');
    assert.equal(installed, PINNED_ROUTER_VERSION, `@koa/router ${installed} is installed: ${WHAT_TO_CHECK}`);
  });

  it('leaves the route it matched on the context (the edge labels request durations by it)', async () => {
    const app = new Koa();
    const router = new Router();
    const seen: (string | undefined)[] = [];
    app.use(async (ctx, next) => {
      await next();
      seen.push(matchedRoute(ctx));
    });
    router.get('/block/:height', (ctx) => {
      ctx.body = 'ok';
    });
    app.use(router.routes());
    await inject(app.callback(), { url: '/block/7' });
    await inject(app.callback(), { url: '/nowhere' });
    assert.deepEqual(seen, ['/block/:height', undefined], `@koa/router: ${WHAT_TO_CHECK}`);
  });
});
