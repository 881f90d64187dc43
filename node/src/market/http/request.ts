/**
 * What every route of the market's HTTP API shares (app.ts): a task id from the path, a JSON body
 * read within its bound, a task that exists (a funding one does not yet), the gate on writes
 * (503 with Retry-After while the market cannot judge them by the chain), and a worker's signed
 * statement about a task (its shape, then its signature: 403 when forged).
 */
import { HttpError, parseJson, readBody } from '@chain-devnet/kit/http';
import type Koa from 'koa';
import { ACCOUNT_PREFIX, isAddress } from '../../crypto/address.js';
import { type Statement, statementProblem, type WorkerSignature } from '../claims.js';
import type { TaskRecord } from '../types.js';
import type { MarketHttpDeps, MarketHttpOptions } from './deps.js';
import { statementShapeProblem } from './schemas.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RETRY = { 'Retry-After': '2' };

export const bad = (detail: string) => new HttpError(400, detail);

export function taskIdParam(value: string | undefined): string {
  if (value === undefined || !UUID.test(value)) throw bad('task_id must be a lowercase UUID');
  return value;
}

export class MarketRequests {
  constructor(
    private readonly deps: MarketHttpDeps,
    private readonly opts: MarketHttpOptions,
  ) {}

  /** Throws a 503 (retry) while writes cannot be judged by the chain. */
  writable(): void {
    const why = this.deps.unavailable();
    if (why !== null) throw new HttpError(503, why, undefined, RETRY);
  }

  async jsonBody(ctx: Koa.Context): Promise<unknown> {
    if (!ctx.is('application/json')) throw new HttpError(415, 'Content-Type must be application/json');
    const raw = await readBody(ctx.req, this.opts.maxBodyBytes);
    return parseJson(raw, (reason) => bad(reason));
  }

  async found(id: string): Promise<TaskRecord> {
    const t = await this.deps.service.task(id);
    if (t === undefined || t.status === 'funding') throw new HttpError(404, 'Task not found');
    return t;
  }

  /** A worker's signed statement about a task: its shape, then its signature (403 when forged). */
  async statement(ctx: Koa.Context, kind: Statement, id: string): Promise<WorkerSignature> {
    const body = await this.jsonBody(ctx);
    const shape = statementShapeProblem(body);
    if (shape !== null) throw bad(shape);
    const s = body as WorkerSignature;
    if (!isAddress(s.worker_address, ACCOUNT_PREFIX)) throw bad('worker_address must be a coin1 address');
    await this.found(id);
    const problem = statementProblem(kind, this.deps.service.escrow.chainId, id, s);
    if (problem !== null) throw new HttpError(403, problem.detail);
    this.writable();
    return s;
  }
}
