/** The market's answers built from its records (answers.ts shapes). */
import type { PayoutAnswer, TaskAnswer, TaskListAnswer } from '../answers.js';
import type { Payload } from '../challenges.js';
import type { TaskSummary } from '../listing.js';
import type { TaskRecord, TaskStatus } from '../types.js';

/** A task that is past `funding`: every field set at that transition is there. */
export function taskView(t: TaskRecord, payload: Payload): TaskAnswer {
  return {
    task_id: t.task_id,
    status: t.status as TaskStatus,
    ...(t.result === null
      ? {}
      : {
          result: {
            result_hash: t.result.result_hash,
            worker_address: t.result.worker_address,
            completed_at: t.result.completed_at,
          },
        }),
    challenge_type: t.challenge_type,
    payload,
    reward: t.reward,
    deadline: t.deadline!,
    created_at: t.created_at!,
    creator_address: t.funding.from_address,
    funding_tx_hash: t.funding.tx_hash,
    worker_address: t.worker?.address ?? null,
    claim_expires_at: t.worker?.expires_at ?? null,
    failure: t.failure === null ? null : { reason: t.failure.reason, failed_at: t.failure.failed_at },
    result_tx_hash: t.result?.tx_hash ?? null,
    result_height: t.result?.height ?? null,
    payouts: t.payouts.map(
      (p): PayoutAnswer => ({
        share: p.share,
        to_address: p.to_address,
        amount: p.amount,
        tx_hash: p.tx_hash,
        status: p.status,
        block_height: p.height,
      }),
    ),
  };
}

/** One page of GET /tasks (the store's summaries from `offset`) and the filter's total. */
export function listView(
  page: { readonly tasks: readonly TaskSummary[]; readonly total: number },
  limit: number,
  offset: number,
): TaskListAnswer {
  return {
    tasks: page.tasks.map((t) => ({
      task_id: t.task_id,
      challenge_type: t.challenge_type,
      status: t.status,
      reward: t.reward,
    })),
    total: page.total,
    limit,
    offset,
  };
}
