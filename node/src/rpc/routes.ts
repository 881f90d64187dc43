/**
 * Every RPC route, declared once: its name, method and path template. The server registers its
 * handlers from this table (app.ts; the compiler checks that every route has one) and the client
 * builds its URLs from it (client/rpcClient.ts), so the two cannot drift apart. The templates are
 * @koa/router's (`:height`), which also labels the request metrics with them.
 */
export const RPC_ROUTES = {
  status: { method: 'GET', path: '/status' },
  block: { method: 'GET', path: '/block/:height' },
  commit: { method: 'GET', path: '/block/:height/commit' },
  balance: { method: 'GET', path: '/balance/:address' },
  validators: { method: 'GET', path: '/validators' },
  delegations: { method: 'GET', path: '/delegator/:address/delegations' },
  rewards: { method: 'GET', path: '/delegator/:address/rewards' },
  unbonding: { method: 'GET', path: '/delegator/:address/unbonding' },
  supply: { method: 'GET', path: '/supply' },
  snapshots: { method: 'GET', path: '/snapshots' },
  snapshot: { method: 'GET', path: '/snapshots/:height' },
  snapshotContent: { method: 'GET', path: '/snapshots/:height/content' },
  evidence: { method: 'GET', path: '/evidence' },
  metrics: { method: 'GET', path: '/metrics' },
  sendTx: { method: 'POST', path: '/tx/send' },
  receipt: { method: 'GET', path: '/tx/:hash/receipt' },
  // A batch of transactions in one request (extension, issue 29): POST /tx/send for each.
  sendTxs: { method: 'POST', path: '/tx/send_batch' },
  // Upgrades (extension, issue 28): the node's and the chain's versions, plans pending and applied.
  upgrades: { method: 'GET', path: '/upgrades' },
  // TEST ONLY (extension, issue 41): a link's round trip and rates, on a node with --fault-injection.
  netProbe: { method: 'POST', path: '/net/probe' },
} as const satisfies Record<string, { readonly method: 'GET' | 'POST'; readonly path: string }>;

export type RouteName = keyof typeof RPC_ROUTES;

/** Every route's name, in the table's order. */
export function routeNames(): RouteName[] {
  return Object.keys(RPC_ROUTES).filter((n): n is RouteName => Object.hasOwn(RPC_ROUTES, n));
}

/** The parameters a path template names: `/block/:height/commit` has `height`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<N extends RouteName> = {
  readonly [K in ParamNames<(typeof RPC_ROUTES)[N]['path']>]: string | number;
};

/**
 * The path of route `name` with its parameters filled in, as written (not escaped: a client
 * passes what the caller gave, and the node answers an odd one with its 400 or 404).
 */
export function routePath<N extends RouteName>(name: N, params: RouteParams<N>): string {
  const values: Readonly<Record<string, string | number>> = params;
  return RPC_ROUTES[name].path.replace(/:([a-z_]+)/g, (_, key: string) => String(values[key]));
}
