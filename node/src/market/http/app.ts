/**
 * The market's HTTP API (docs/MARKET.md), a Koa app testable through app.callback() with no
 * port opened. It shares the node's HTTP edge (http/edge.ts: every error a `{"detail"}`, never a
 * stack trace, lingering close after an early answer), its body reading (a bound, 413 past it)
 * and its HTTP server (http/server.ts). Writes need the chain: while the market cannot reach its
 * node, or is still catching up, they are answered 503 with Retry-After; reads are served from
 * the market's own store.
 */
import { METHODS } from 'node:http';
import {
  DEFAULT_RPC_OPTIONS,
  edgeMiddleware,
  HttpError,
  parseJson,
  type RpcOptions,
  readBody,
  sendJson,
  silenceKoa,
} from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import { Router } from '@koa/router';
import Koa from 'koa';
import type { RpcClient } from '../../client/rpcClient.js';
import { ACCOUNT_PREFIX, isAddress } from '../../crypto/address.js';
import type { MarketMetrics } from '../../metrics/market.js';
import type { ClaimAnswer, CreateTaskAnswer, FailAnswer, MarketInfoAnswer } from '../answers.js';
import type { ChallengeType, Payload } from '../challenges.js';
import { type Statement, statementProblem, type WorkerSignature } from '../claims.js';
import { checkFunding, type FundingOutcome, settleFunding } from '../funding.js';
import type { MarketService } from '../service.js';
import type { Terms } from '../terms.js';
import type { TaskRecord, TaskStatus } from '../types.js';
import { parseListQuery } from './query.js';
import { createTaskProblem, payloadProblem, rewardOf, statementShapeProblem } from './schemas.js';
import { listView, taskView } from './views.js';

/** The node RPC's bounds (body, lingering, request time), and the wait for a task's funding. */
export interface MarketHttpOptions extends RpcOptions {
  /** How long POST /tasks waits for its funding to be final before answering 503 (retry). */
  readonly fundingWaitMs: number;
}

export const DEFAULT_MARKET_HTTP: MarketHttpOptions = { ...DEFAULT_RPC_OPTIONS, fundingWaitMs: 20_000 };

export interface MarketHttpDeps {
  readonly service: MarketService;
  /** Sends the funding and reads receipts. */
  readonly rpc: RpcClient;
  /** Null when the market can judge writes by the chain; else why not (a 503's detail). */
  readonly unavailable: () => string | null;
  readonly metrics: MarketMetrics;
  readonly logger: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RETRY = { 'Retry-After': '2' };

const bad = (detail: string) => new HttpError(400, detail);

function taskIdParam(value: string | undefined): string {
  if (value === undefined || !UUID.test(value)) throw bad('task_id must be a lowercase UUID');
  return value;
}

export function createMarketApp(deps: MarketHttpDeps, opts: MarketHttpOptions = DEFAULT_MARKET_HTTP): Koa {
  const { service } = deps;
  const app = new Koa();
  const router = new Router({ methods: METHODS });

  const writable = () => {
    const why = deps.unavailable();
    if (why !== null) throw new HttpError(503, why, undefined, RETRY);
  };

  const jsonBody = async (ctx: Koa.Context): Promise<unknown> => {
    if (!ctx.is('application/json')) throw new HttpError(415, 'Content-Type must be application/json');
    const raw = await readBody(ctx.req, opts.maxBodyBytes);
    return parseJson(raw, (reason) => bad(reason));
  };

  const found = async (id: string): Promise<TaskRecord> => {
    const t = await service.task(id);
    if (t === undefined || t.status === 'funding') throw new HttpError(404, 'Task not found');
    return t;
  };

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

  router.post('/tasks', async (ctx) => {
    const body = await jsonBody(ctx);
    const shape = createTaskProblem(body);
    if (shape !== null) throw bad(shape);
    const b = body as {
      challenge_type: ChallengeType;
      payload: unknown;
      reward: string;
      deadline?: number;
      funding: unknown;
    };
    const payload = payloadProblem(b.challenge_type, b.payload);
    if (payload !== null) throw bad(payload);
    const reward = rewardOf(b.reward);
    if (reward === null) throw bad('reward must be a decimal string of wei, above 0 and below 2^256');
    const terms: Terms = {
      challengeType: b.challenge_type,
      payload: b.payload as Payload,
      reward,
      deadline: b.deadline ?? null,
    };
    const funding = checkFunding(b.funding, terms, service.escrow.address, service.escrow.chainId);
    if (!funding.ok) throw bad(funding.detail);
    writable();
    const intake = await service.intake(terms, funding.tx);
    if (intake.kind === 'bad_deadline') throw bad(intake.detail);
    const outcome: FundingOutcome =
      intake.task.status === 'funding'
        ? await settleFunding(service, deps.rpc, intake.task, intake.created, opts.fundingWaitMs)
        : intake;
    switch (outcome.kind) {
      case 'refused':
        throw bad(outcome.detail);
      case 'not_final':
        throw new HttpError(
          503,
          'Funding not final yet: send the same request again (it makes no second task and no second payment)',
          undefined,
          RETRY,
        );
      case 'unreachable':
        throw new HttpError(
          503,
          'Chain not reachable: the market cannot reach its node',
          outcome.detail,
          RETRY,
        );
      case 'task':
        sendJson(ctx, outcome.created ? 201 : 200, {
          task_id: outcome.task.task_id,
          status: outcome.task.status as TaskStatus,
          created_at: outcome.task.created_at!,
        } satisfies CreateTaskAnswer);
    }
  });

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
    const t = await found(taskIdParam(ctx.params.task_id));
    const payload = await service.payload(t.task_id);
    if (payload === null) throw new Error(`task ${t.task_id} has no payload in the store`);
    sendJson(ctx, 200, taskView(t, payload));
  });

  /** A worker's signed statement about a task: its shape, then its signature (403 when forged). */
  const statement = async (ctx: Koa.Context, kind: Statement, id: string): Promise<WorkerSignature> => {
    const body = await jsonBody(ctx);
    const shape = statementShapeProblem(body);
    if (shape !== null) throw bad(shape);
    const s = body as WorkerSignature;
    if (!isAddress(s.worker_address, ACCOUNT_PREFIX)) throw bad('worker_address must be a coin1 address');
    await found(id);
    const problem = statementProblem(kind, service.escrow.chainId, id, s);
    if (problem !== null) throw new HttpError(403, problem.detail);
    writable();
    return s;
  };

  router.post('/tasks/:task_id/claim', async (ctx) => {
    const id = taskIdParam(ctx.params.task_id);
    const s = await statement(ctx, 'claim', id);
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
    const s = await statement(ctx, 'failure', id);
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
