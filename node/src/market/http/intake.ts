/**
 * POST /tasks (docs/MARKET.md, "Creating a task"): the order checked field by field, its funding
 * checked against its terms, the task taken in (idempotent: the same request again makes no
 * second task and no second payment), then its funding settled within a wait, answered 201 (made)
 * or 200 (known), or 503 to retry when the funding is not final or the chain not reachable.
 */
import { HttpError, sendJson } from '@chain-devnet/kit/http';
import type Koa from 'koa';
import type { CreateTaskAnswer } from '../answers.js';
import type { ChallengeType, Payload } from '../challenges.js';
import { checkFunding, type FundingOutcome, settleFunding } from '../funding.js';
import type { Terms } from '../terms.js';
import type { TaskStatus } from '../types.js';
import type { MarketHttpDeps, MarketHttpOptions } from './deps.js';
import { bad, type MarketRequests, RETRY } from './request.js';
import { createTaskProblem, payloadProblem, rewardOf } from './schemas.js';

/** The order's terms, every field checked. */
function termsOf(body: unknown): Terms {
  const shape = createTaskProblem(body);
  if (shape !== null) throw bad(shape);
  const b = body as { challenge_type: ChallengeType; payload: unknown; reward: string; deadline?: number };
  const payload = payloadProblem(b.challenge_type, b.payload);
  if (payload !== null) throw bad(payload);
  const reward = rewardOf(b.reward);
  if (reward === null) throw bad('reward must be a decimal string of wei, above 0 and below 2^256');
  return {
    challengeType: b.challenge_type,
    payload: b.payload as Payload,
    reward,
    deadline: b.deadline ?? null,
  };
}

export function createTask(deps: MarketHttpDeps, opts: MarketHttpOptions, req: MarketRequests) {
  const { service } = deps;
  return async (ctx: Koa.Context): Promise<void> => {
    const body = await req.jsonBody(ctx);
    const terms = termsOf(body);
    const funding = checkFunding(
      (body as { funding: unknown }).funding,
      terms,
      service.escrow.address,
      service.escrow.chainId,
    );
    if (!funding.ok) throw bad(funding.detail);
    req.writable();
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
  };
}
