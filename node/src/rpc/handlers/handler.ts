/** What every group of the RPC's handlers shares: a handler per route name, and the readiness gate. */
import type { RouterMiddleware } from '@koa/router';
import type { ChainState } from '../../chain/index.js';
import type { RouteName } from '../routes.js';

/** The handlers of some of the routes, by name (app.ts puts the groups together: every route once). */
export type Handlers<N extends RouteName> = { readonly [K in N]: RouterMiddleware };

/** The committed state, or a 503 while the node's state loads (notInitialized). */
export type Ready = () => ChainState;
