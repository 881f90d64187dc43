/**
 * The RPC: a Koa app with the specification's endpoints, testable through app.callback()
 * with no port opened. Its routes are rpc/routes.ts's table (which the client reads too), one
 * handler each. Order of middleware: errors (first, so nothing escapes as a stack trace),
 * metrics, routes, then 404/405 as JSON. Every error body is {"detail": "..."}.
 */
import { METHODS } from 'node:http';
import {
  DEFAULT_RPC_OPTIONS,
  edgeMiddleware,
  HttpError,
  parseJson,
  readBody,
  sendJson,
  silenceKoa,
} from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import { Router, type RouterMiddleware } from '@koa/router';
import Koa from 'koa';
import { MAX_SNAPSHOT_FILE_BYTES, MAX_TXS_BATCH_BYTES } from '../chain/index.js';
import { ACCOUNT_PREFIX, isAddress } from '../crypto/address.js';
import { isHex } from '../crypto/hex.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { SnapshotsAnswer, SubmitAnswer } from './answers.js';
import type { RpcBackend, SubmitOutcome } from './backend.js';
import { invalidTx, notInitialized } from './refusals.js';
import { type RouteName, RPC_ROUTES, routeNames } from './routes.js';
import { txBatchProblem, txBodyProblem } from './schemas.js';
import { upgradesView } from './upgradesView.js';
import {
  balanceView,
  commitView,
  delegationsView,
  rewardsView,
  snapshotDetail,
  snapshotListItem,
  statusView,
  supplyView,
  unbondingView,
  validatorsView,
} from './views.js';

/** Addresses already found valid: a Bech32 checksum per request is the largest cost of /balance. */
const validAddresses = new Set<string>();

function accountParam(value: string | undefined): string {
  if (value !== undefined && validAddresses.has(value)) return value;
  if (value === undefined || !isAddress(value, ACCOUNT_PREFIX))
    throw new HttpError(400, 'Invalid address: expected a coin1 Bech32 address');
  if (validAddresses.size >= 10_000) validAddresses.clear();
  validAddresses.add(value);
  return value;
}

function heightParam(value: string | undefined): number {
  if (value === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new HttpError(400, 'Invalid height: expected a non-negative integer');
  return Number(value);
}

/** A well-formed transaction's answer: received, or rejected saying why. */
function submitAnswer(o: SubmitOutcome): SubmitAnswer {
  if (o.kind === 'rejected') return { tx_hash: o.hash, status: 'rejected', error: o.message };
  if (o.kind === 'received') return { tx_hash: o.hash, status: 'received' };
  // A malformed one makes its request a 400 before any answer is written.
  throw invalidTx(o.reason);
}

export function createRpcApp(
  backend: RpcBackend,
  metrics: NodeMetrics,
  logger: Logger,
  opts = DEFAULT_RPC_OPTIONS,
): Koa {
  const app = new Koa();
  // Every method Node parses counts as implemented, so that one no route has is a 405 with
  // Allow (or a 404 off the routes), not @koa/router's 501 for methods outside its short list.
  const router = new Router({ methods: METHODS });
  let contentInFlight = false;
  const ready = () => {
    if (!backend.ready) throw notInitialized();
    return backend.state;
  };

  const handlers: { readonly [N in RouteName]: RouterMiddleware } = {
    status: (ctx) => sendJson(ctx, 200, statusView(ready(), backend.mempoolSize)),

    block: async (ctx) => {
      ready();
      const block = await backend.blockJson(heightParam(ctx.params.height));
      if (block === null) throw new HttpError(404, 'Block not found');
      sendJson(ctx, 200, block);
    },

    commit: async (ctx) => {
      ready();
      const commit = await backend.commit(heightParam(ctx.params.height));
      if (commit === null) throw new HttpError(404, 'Commit not found');
      sendJson(ctx, 200, commitView(commit));
    },

    balance: (ctx) => sendJson(ctx, 200, balanceView(ready(), accountParam(ctx.params.address))),
    validators: (ctx) => sendJson(ctx, 200, validatorsView(ready())),
    delegations: (ctx) => sendJson(ctx, 200, delegationsView(ready(), accountParam(ctx.params.address))),
    rewards: (ctx) => sendJson(ctx, 200, rewardsView(ready(), accountParam(ctx.params.address))),
    unbonding: (ctx) => sendJson(ctx, 200, unbondingView(ready(), accountParam(ctx.params.address))),

    supply: (ctx) => sendJson(ctx, 200, supplyView(ready())),

    snapshots: async (ctx) => {
      ready();
      sendJson(ctx, 200, {
        snapshots: (await backend.snapshots()).map(snapshotListItem),
      } satisfies SnapshotsAnswer);
    },

    snapshot: async (ctx) => {
      ready();
      const height = heightParam(ctx.params.height);
      let record: Awaited<ReturnType<RpcBackend['snapshot']>>;
      try {
        record = await backend.snapshot(height);
      } catch (e) {
        // A snapshot whose file is missing or does not hash to its recorded value is not served.
        throw new HttpError(500, `Snapshot ${height} failed verification`, (e as Error).message);
      }
      if (record === null) throw new HttpError(404, 'Snapshot not found');
      sendJson(ctx, 200, snapshotDetail(record));
    },

    // An extension (issue 27, a devnet forked from a running network; docs/PROTOCOL.md): the
    // snapshot's gzip file as stored, the one canonical encoding state sync also serves. One
    // answer at a time (a file is up to 256 MiB): a second meanwhile is told to come back.
    snapshotContent: async (ctx) => {
      ready();
      const height = heightParam(ctx.params.height);
      if (contentInFlight) {
        ctx.set('Retry-After', '1');
        throw new HttpError(503, 'Busy: another snapshot content answer is in progress; retry in a second');
      }
      contentInFlight = true;
      // Free again once the answer is sent (or its client gone), not when the handler returns.
      ctx.res.once('close', () => {
        contentInFlight = false;
      });
      const found = await backend.snapshotFile(height);
      if (found === null) throw new HttpError(404, 'Snapshot not found');
      if (found.file.length > MAX_SNAPSHOT_FILE_BYTES)
        throw new HttpError(
          500,
          `Snapshot ${height} is ${found.file.length} bytes, over the ${MAX_SNAPSHOT_FILE_BYTES} this endpoint serves`,
        );
      ctx.status = 200;
      ctx.type = 'application/gzip';
      ctx.set('X-Snapshot-Height', String(found.record.height));
      ctx.set('X-Snapshot-Hash', found.record.hash);
      ctx.body = Buffer.from(found.file.buffer, found.file.byteOffset, found.file.length);
    },

    evidence: (ctx) => {
      ready();
      sendJson(ctx, 200, { evidence: backend.evidence() });
    },

    metrics: async (ctx) => {
      ctx.status = 200;
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    },

    sendTx: async (ctx) => {
      ready();
      if (!ctx.is('application/json')) throw invalidTx('Content-Type must be application/json');
      const raw = await readBody(ctx.req, opts.maxBodyBytes);
      const body = parseJson(raw, invalidTx);
      const problem = txBodyProblem(body);
      if (problem) throw invalidTx(problem);
      // Settles after the admission batch this transaction joined (its signature checked with the others').
      const outcome = await backend.submit(body, raw.length);
      if (outcome.kind === 'malformed') throw invalidTx(outcome.reason);
      sendJson(ctx, 200, submitAnswer(outcome));
    },

    // An extension (issue 29; docs/PROTOCOL.md): what POST /tx/send does, for up to 256
    // transactions at once (one request, one JSON parse, one admission batch), answered with
    // each one's answer in order. Malformed as a whole when any of them is: none is admitted.
    sendTxs: async (ctx) => {
      ready();
      if (!ctx.is('application/json')) throw invalidTx('Content-Type must be application/json');
      const raw = await readBody(ctx.req, MAX_TXS_BATCH_BYTES);
      const body = parseJson(raw, invalidTx);
      const problem = txBatchProblem(body);
      if (problem) throw invalidTx(problem);
      const outcome = await backend.submitBatch(body as unknown[], raw.length);
      if (outcome.kind === 'malformed') throw invalidTx(outcome.reason);
      sendJson(ctx, 200, outcome.outcomes.map(submitAnswer));
    },

    receipt: async (ctx) => {
      ready();
      const hash = ctx.params.hash ?? '';
      if (!isHex(hash, 32))
        throw new HttpError(400, 'Invalid transaction hash: expected 64 lowercase hex characters');
      const receipt = await backend.receipt(hash);
      if (receipt === null) throw new HttpError(404, 'Transaction not found');
      sendJson(ctx, 200, receipt);
    },

    upgrades: (ctx) => sendJson(ctx, 200, upgradesView(ready(), backend.versions)),
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
