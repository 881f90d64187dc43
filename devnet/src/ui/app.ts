/**
 * The panel's HTTP app (Koa): the page and its assets, the event stream, and the actions.
 *   GET  /                          the page (and /panel.js, /panel.css)
 *   GET  /api/health                {"ok": true}: the panel is up (what `devnet up` waits for)
 *   GET  /api/events                server-sent events: `snapshot`, then changes (shapes.ts)
 *   POST /api/nodes/{name}/{op}     stop|start|kill|pause|resume|restart|disconnect|connect
 *   POST /api/nodes                 add a node: {"name"?, "stake"?}
 *   POST /api/tx/send               a transfer: {"from", "to", "amount", "memo"?}
 *   POST /api/net                   network conditions: {"node"?, "latency"?, "jitter"?, "loss"?, "rate"?, "to"?, "direction"?, "clear"?}
 *   POST /api/partition             {"shape"} | {"oneWay": {"from", "to"}} | {"heal": true}
 *   POST /api/disk                  disk faults: {"node", "full"?, "slowWrites"?, "slowFsync"?, "loseUnsynced"?, "clear"?}
 *   POST /api/chain                 the chain's time: "pause" | "resume" | {"mine"} | {"until_height"} | {"until_epoch"} | {"block_time"} | {"time"} | {"at"}
 *   POST /api/clock                 a node's clock: {"node", "skew"}
 * The guard (guard.ts) runs first for every request. Errors are translated here, once: a
 * refusal is 4xx `{"detail"}` (with the devnet's `code` when it was one of its errors), any
 * other failure 500 without its stack (which goes to the panel's log).
 */
import { METHODS } from 'node:http';
import {
  answerUnrouted,
  closeOnceBodyRead,
  DEFAULT_RPC_OPTIONS,
  HttpError,
  readBody,
  sendJson,
} from '@chain-devnet/kit/http';
import { Router } from '@koa/router';
import { Ajv, type ErrorObject } from 'ajv';
import Koa from 'koa';
import { DevnetError, type DevnetErrorCode } from '../base/errors.js';
import { NET_REQUEST_SCHEMA, type NetRequest } from '../net/request.js';
import { SHAPES } from '../net/shapes.js';
import {
  CHAIN_REQUEST_SCHEMA,
  type ChainRequest,
  CLOCK_REQUEST_SCHEMA,
  type ClockRequest,
} from '../operations/chainRequest.js';
import { DISK_REQUEST_SCHEMA, type DiskRequest } from '../runtime/diskRequest.js';
import { isDevnetOp, isNodeOp, type PanelActions } from './actions.js';
import type { PageAssets } from './assets.js';
import { guard } from './guard.js';
import { type EventHub, encodeEvent } from './hub.js';
import type {
  AddRequest,
  PanelErrorAnswer,
  PanelSnapshot,
  PartitionRequest,
  TransferRequest,
} from './shapes.js';

export interface PanelAppDeps {
  readonly port: number;
  readonly secret: string;
  readonly hub: EventHub;
  readonly snapshot: () => PanelSnapshot;
  /** The actions (PanelActions; a test's stand-in). */
  readonly actions: Pick<
    PanelActions,
    'nodeOp' | 'devnetOp' | 'transfer' | 'add' | 'save' | 'net' | 'partition' | 'disk' | 'chain' | 'clock'
  >;
  readonly assets: PageAssets;
  readonly log: (line: string) => void;
}

/** An action's body, at most. */
const MAX_BODY_BYTES = 16 * 1024;

const STATUS_OF: Partial<Record<DevnetErrorCode, number>> = {
  BAD_FLAG: 400,
  BAD_MANIFEST: 400,
  UNKNOWN_NODE: 404,
  NO_DEVNET: 410,
  TX_FAILED: 422,
  TIMEOUT: 504,
};

// verbose: a failed oneOf's data and branches, to say the errors of the branch the body meant.
const ajv = new Ajv({ allErrors: true, verbose: true });
const NAME = { type: 'string', minLength: 1, maxLength: 128 };
const checkTransfer = ajv.compile<TransferRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'amount'],
  properties: { from: NAME, to: NAME, amount: NAME, memo: { type: 'string', maxLength: 256 } },
});
const checkAdd = ajv.compile<AddRequest>({
  type: 'object',
  additionalProperties: false,
  properties: { name: NAME, stake: NAME },
});

const checkNet = ajv.compile<NetRequest>(NET_REQUEST_SCHEMA);
const checkDisk = ajv.compile<DiskRequest>(DISK_REQUEST_SCHEMA);
const checkChain = ajv.compile<ChainRequest>(CHAIN_REQUEST_SCHEMA);
const checkClock = ajv.compile<ClockRequest>(CLOCK_REQUEST_SCHEMA);
const checkPartition = ajv.compile<PartitionRequest>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    shape: { enum: [...SHAPES] },
    oneWay: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to'],
      properties: { from: NAME, to: NAME },
    },
    heal: { const: true },
  },
});

/** Every problem of a body, each naming its field (`amount must be string`). */
function problems(errors: readonly ErrorObject[] | null | undefined): string {
  return meantErrors(errors ?? [])
    .map((e) => {
      const field = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
      if (e.keyword === 'oneOf')
        return `${field || 'the body'} is none of the forms it takes: ${(e.parentSchema as { description?: string }).description ?? 'see the route'}`;
      if (e.keyword === 'additionalProperties')
        return `${(e.params as { additionalProperty: string }).additionalProperty} is not a field`;
      if (e.keyword === 'required')
        return `${(e.params as { missingProperty: string }).missingProperty} is required`;
      return `${field || 'the body'} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/**
 * A failed oneOf's errors are every branch's: kept are those of the branch the body meant (the
 * one whose fields it has, `{"mine": 0}` the mine form), or else the oneOf's own, which says the
 * forms; ajv's per-branch errors are noise.
 */
function meantErrors(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  const o = errors.find((e) => e.keyword === 'oneOf');
  if (o === undefined) return errors;
  const data = o.data as unknown;
  const keys = typeof data === 'object' && data !== null ? Object.keys(data) : null;
  const branches = o.schema as { required?: string[] }[];
  const meant = branches.findIndex(
    (b) =>
      keys !== null &&
      (b.required ?? []).length === keys.length &&
      b.required!.every((k) => keys.includes(k)),
  );
  if (meant < 0) return [o];
  return errors.filter((e) => e.schemaPath.startsWith(`${o.schemaPath}/${meant}/`));
}

async function jsonBody<T>(
  ctx: Koa.Context,
  check: { (v: unknown): v is T; errors?: ErrorObject[] | null },
): Promise<T> {
  if (!ctx.is('application/json')) throw new HttpError(415, 'Content-Type must be application/json');
  const raw = await readBody(ctx.req, MAX_BODY_BYTES);
  let value: unknown;
  try {
    value = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new HttpError(400, `the body is not JSON: ${(e as Error).message}`);
  }
  if (!check(value)) throw new HttpError(400, problems(check.errors));
  return value;
}

/**
 * The world's actions: network conditions (`devnet net`), partitions (`devnet partition`), disk
 * faults (`devnet disk`), the chain's time (`devnet chain`, `devnet clock`).
 */
function worldRoutes(router: Router, deps: PanelAppDeps): void {
  router.post('/api/chain', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.chain(await jsonBody(ctx, checkChain))),
  );
  router.post('/api/clock', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.clock(await jsonBody(ctx, checkClock))),
  );
  router.post('/api/net', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.net(await jsonBody(ctx, checkNet))),
  );
  router.post('/api/partition', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.partition(await jsonBody(ctx, checkPartition))),
  );
  router.post('/api/disk', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.disk(await jsonBody(ctx, checkDisk))),
  );
}

export function createPanelApp(deps: PanelAppDeps): Koa {
  const app = new Koa();
  const router = new Router({ methods: METHODS });

  for (const asset of deps.assets.list())
    router.get(asset.path, (ctx) => {
      ctx.type = asset.type;
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = asset.body;
    });

  router.get('/api/health', (ctx) => sendJson(ctx, 200, { ok: true }));

  router.get('/api/events', (ctx) => {
    if (deps.hub.full) throw new HttpError(503, 'too many pages are open on this panel: close one');
    // The stream is written by the hub from now on, not by Koa.
    ctx.respond = false;
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    deps.hub.add(ctx.res, encodeEvent('snapshot', deps.snapshot()));
  });

  router.post('/api/nodes/:name/:op', async (ctx) => {
    const { name = '', op = '' } = ctx.params;
    if (!isNodeOp(op)) throw new HttpError(404, `no node operation ${op}`);
    sendJson(ctx, 200, await deps.actions.nodeOp(op, name));
  });

  router.post('/api/devnet/:op', async (ctx) => {
    const { op = '' } = ctx.params;
    if (!isDevnetOp(op)) throw new HttpError(404, `no devnet operation ${op}`);
    sendJson(ctx, 200, await deps.actions.devnetOp(op));
  });

  router.post('/api/nodes', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.add(await jsonBody(ctx, checkAdd))),
  );

  router.post('/api/save', async (ctx) => sendJson(ctx, 200, await deps.actions.save()));

  worldRoutes(router, deps);

  router.post('/api/tx/send', async (ctx) =>
    sendJson(ctx, 200, await deps.actions.transfer(await jsonBody(ctx, checkTransfer))),
  );

  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.respond === false) return; // a stream, answered by the hub
      answerUnrouted(ctx);
    } catch (e) {
      let status = 500;
      let body: PanelErrorAnswer = {
        detail: 'Internal error: see the panel log (ui/panel.log in the devnet folder)',
      };
      if (e instanceof HttpError) {
        status = e.status;
        body = { detail: e.detail };
      } else if (e instanceof DevnetError) {
        status = STATUS_OF[e.code] ?? 500;
        body = { detail: e.message, code: e.code };
      } else deps.log(`${ctx.method} ${ctx.path} failed: ${(e as Error).stack ?? String(e)}`);
      // A refusal of a stream answers before Koa would: the headers are still unsent here.
      ctx.respond = true;
      sendJson(ctx, status, body);
    }
    closeOnceBodyRead(ctx, DEFAULT_RPC_OPTIONS);
  });
  app.use(guard({ port: deps.port, secret: deps.secret }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.silent = true;
  app.on('error', (e: Error) => deps.log(`koa: ${e.message}`));
  return app;
}
