/**
 * A client of the task market (docs/MARKET.md): one typed method per endpoint, the answers of
 * answers.ts, every refusal an RpcError with its status and `{"detail"}`. A write answered 503
 * with Retry-After (the market not reaching its node or catching up with it, a payment not final
 * yet) is sent again as the market asks, within a bound: the market documents each write as
 * safe to repeat (POST /tasks finds the same task by its payment; a claim again by the same
 * worker is the same claim). Also how a creator makes a funded request: `fundedRequest` signs the
 * TRANSFER whose memo binds the terms.
 */

import { txToJson } from '../chain/index.js';
import { JsonHttpClient } from '../client/jsonHttp.js';
import type { RpcClient } from '../client/rpcClient.js';
import { buildTx } from '../client/txBuilder.js';
import type {
  ClaimAnswer,
  CreateTaskAnswer,
  CreateTaskRequest,
  FailAnswer,
  MarketInfoAnswer,
  TaskAnswer,
  TaskListAnswer,
} from './answers.js';
import type { ChallengeType, Payload } from './challenges.js';
import { signStatement } from './claims.js';
import { fundingMemo } from './terms.js';
import type { TaskStatus } from './types.js';

export interface ListTasks {
  readonly status?: TaskStatus;
  readonly challenge_type?: ChallengeType;
  readonly limit?: number;
  readonly offset?: number;
}

export class MarketClient extends JsonHttpClient {
  /**
   * @param timeoutMs each request's bound
   * @param retryWithinMs how long a write answered 503 with Retry-After is sent again (0: never);
   *   past it, the last 503 is the error
   */
  constructor(
    baseUrl: string,
    timeoutMs = 10_000,
    readonly retryWithinMs = 60_000,
  ) {
    super(baseUrl, timeoutMs);
  }

  info(): Promise<MarketInfoAnswer> {
    return this.get('/market');
  }

  /** POST /tasks; while the market answers 503 with Retry-After, the same body again (no second task, no second payment). */
  createTask(req: CreateTaskRequest): Promise<CreateTaskAnswer> {
    return this.write('/tasks', req);
  }

  task(id: string): Promise<TaskAnswer> {
    return this.get(`/tasks/${id}`);
  }

  tasks(q: ListTasks = {}): Promise<TaskListAnswer> {
    const query = new URLSearchParams(
      Object.entries(q)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return this.get(`/tasks${query === '' ? '' : `?${query}`}`);
  }

  /** Claims a task with the worker's key (signed here; the key never leaves). */
  claim(id: string, chainId: string, workerKey: Uint8Array): Promise<ClaimAnswer> {
    return this.write(`/tasks/${id}/claim`, signStatement('claim', chainId, id, workerKey));
  }

  /** Reports, as the claiming worker, that the task failed: its creator is refunded. */
  fail(id: string, chainId: string, workerKey: Uint8Array): Promise<FailAnswer> {
    return this.write(`/tasks/${id}/fail`, signStatement('failure', chainId, id, workerKey));
  }

  /** A POST, sent again after each 503 with Retry-After while `retryWithinMs` allows the wait. */
  private write<T>(path: string, body: unknown): Promise<T> {
    return this.whileBusy(this.retryWithinMs, () => this.post<T>(path, body));
  }

  metrics(): Promise<string> {
    return this.request('GET', '/metrics');
  }
}

export interface TaskOrder {
  readonly challenge_type: ChallengeType;
  readonly payload: Payload;
  readonly reward: bigint;
  readonly deadline?: number;
}

/**
 * A POST /tasks body: the terms and the creator's TRANSFER of `reward` to the escrow with the
 * terms' memo, signed with `creatorKey` (nonce from the node unless given).
 */
export async function fundedRequest(
  rpc: RpcClient,
  info: Pick<MarketInfoAnswer, 'chain_id' | 'escrow_address'>,
  creatorKey: Uint8Array,
  order: TaskOrder,
  o: { nonce?: number; timestamp?: number } = {},
): Promise<CreateTaskRequest> {
  const memo = fundingMemo({
    challengeType: order.challenge_type,
    payload: order.payload,
    reward: order.reward,
    deadline: order.deadline ?? null,
  });
  const tx = await buildTx(rpc, {
    type: 'TRANSFER',
    privateKey: creatorKey,
    to: info.escrow_address,
    amount: order.reward,
    payload: { memo },
    chainId: info.chain_id,
    timestamp: o.timestamp ?? Math.floor(Date.now() / 1000),
    ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
  });
  return {
    challenge_type: order.challenge_type,
    payload: order.payload,
    reward: order.reward.toString(),
    ...(order.deadline === undefined ? {} : { deadline: order.deadline }),
    funding: txToJson(tx),
  };
}
