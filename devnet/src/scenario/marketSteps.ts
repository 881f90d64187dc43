/**
 * The task market's flow as steps (docs/MARKET.md), through the market's own client: `market:
 * {post}` funds and posts a task from a devnet account, `market: {claim}` claims it with an
 * account's key, and `expect: {task}` waits for its status. The result goes on chain with a tx
 * step (SUBMIT_RESULT, taskId and resultHash). Needs a devnet with the market (`market: true`).
 */

import { parseDuration } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { parseAmount } from '@chain-devnet/node/chain';
import {
  type ChallengeType,
  fundedRequest,
  MarketClient,
  PAYLOAD_FIELDS,
  type Payload,
  type TaskStatus,
} from '@chain-devnet/node/market';
import type { Within } from '../testkit/bounds.js';
import type { Testnet } from '../testkit/testnet/testnet.js';
import type { Produced } from './refs.js';

export interface PostTask {
  /** The creator: a devnet account, which pays the reward and the fee. */
  readonly from: string;
  readonly reward: string;
  /** Default inference. */
  readonly challenge?: ChallengeType;
  /** Default: the challenge's required fields, each at its least value ("scenario" for text). */
  readonly payload?: Payload;
  /** Chain time the task has, from now (`25s`); default the market's (24 h). */
  readonly deadline?: string;
}

export interface ClaimTask {
  readonly task: string;
  /** The worker: a devnet account, which signs the claim (and later sends SUBMIT_RESULT). */
  readonly worker: string;
}

export type MarketStep = { readonly post: PostTask } | { readonly claim: ClaimTask };

export interface TaskExpectation {
  readonly task: string;
  readonly status: TaskStatus;
  /** Default 10 blocks. */
  readonly within?: Within;
}

/** A payload of the challenge's required fields, each at its least value. */
export function defaultPayload(challenge: ChallengeType): Payload {
  return Object.fromEntries(
    PAYLOAD_FIELDS[challenge]
      .filter((f) => f.required)
      .map((f) => [f.name, f.kind === 'string' ? 'scenario' : f.min === 0 ? 1 : f.min]),
  );
}

function clientOf(net: Testnet): MarketClient {
  if (net.market === null) throw new Error('this devnet runs no market (manifest market: true)');
  return new MarketClient(net.market, 30_000);
}

function account(net: Testnet, name: string) {
  const a = net.accounts.find((x) => x.name === name);
  if (a === undefined) throw new Error(`no devnet account ${name}`);
  return a;
}

export async function marketStep(net: Testnet, step: MarketStep): Promise<Produced> {
  const client = clientOf(net);
  const info = await client.info();
  if ('post' in step) {
    const p = step.post;
    const challenge = p.challenge ?? 'inference';
    const deadline =
      p.deadline === undefined ? undefined : info.chain_time + Math.ceil(parseDuration(p.deadline)! / 1000);
    const creator = account(net, p.from);
    const req = await fundedRequest(net.node(net.names()[0]!).rpc, info, creator.privateKey, {
      challenge_type: challenge,
      payload: p.payload ?? defaultPayload(challenge),
      reward: parseAmount(p.reward)!,
      ...(deadline === undefined ? {} : { deadline }),
    });
    const created = await client.createTask(req);
    const task = await client.task(created.task_id);
    net.log(`task ${created.task_id} posted (${task.status}), funded by ${task.funding_tx_hash}`);
    return { task: created.task_id, hash: task.funding_tx_hash, height: info.height };
  }
  const c = step.claim;
  const worker = account(net, c.worker);
  const claimed = await client.claim(c.task, info.chain_id, worker.privateKey);
  return { task: claimed.task_id, worker: claimed.worker_address, height: info.height };
}

/** Waits until the task has the status, within the bound; fails naming what it found. */
export async function expectTask(net: Testnet, e: TaskExpectation): Promise<Produced> {
  const client = clientOf(net);
  const deadline = Date.now() + net.bound(e.within ?? { blocks: 10 });
  let found = 'no answer yet';
  for (;;) {
    try {
      const t = await client.task(e.task);
      if (t.status === e.status)
        return { task: t.task_id, height: t.result_height ?? (await client.info()).height };
      found = `status ${t.status}${t.failure === null ? '' : ` (${t.failure.reason})`}`;
      // A task completed or failed stays so: waiting longer cannot help.
      if (t.status === 'completed' || t.status === 'failed') break;
    } catch (err) {
      found = `no answer (${(err as Error).message})`;
    }
    if (Date.now() >= deadline) break;
    await pause(200);
  }
  throw await net.net.failureNow(net.names()[0]!, `task ${e.task} ${e.status} (the market's answer)`, found);
}
