/**
 * The JSON the market answers, endpoint by endpoint (docs/MARKET.md): one definition, which its
 * views are typed against and its client (client.ts), the sample worker, the devnet and the e2e
 * suite read with. Wei are decimal strings; times are Unix seconds of the chain (block time).
 */
import type { TxJson } from '../chain/index.js';
import type { ChallengeType, Payload } from './challenges.js';
import type { WorkerSignature } from './claims.js';
import type { Share } from './split.js';
import type { TaskStatus } from './types.js';

/** POST /tasks: the specification's fields, then the `funding` extension. */
export interface CreateTaskRequest {
  readonly challenge_type: ChallengeType;
  readonly payload: Payload;
  /** Wei, decimal. */
  readonly reward: string;
  readonly deadline?: number;
  /** Extension: the creator's signed TRANSFER of exactly `reward` wei to the escrow. */
  readonly funding: TxJson;
}

/** POST /tasks: 201 (created) or 200 (the task this funding already made). */
export interface CreateTaskAnswer {
  readonly task_id: string;
  readonly status: TaskStatus;
  readonly created_at: number;
}

export interface TaskResult {
  readonly result_hash: string;
  readonly worker_address: string;
  readonly completed_at: number;
}

export interface PayoutAnswer {
  readonly share: Share;
  readonly to_address: string;
  readonly amount: string;
  readonly tx_hash: string;
  readonly status: 'planned' | 'confirmed';
  readonly block_height: number | null;
}

/** GET /tasks/{task_id}: the specification's {task_id, status, result?}, then the task's other fields. */
export interface TaskAnswer {
  readonly task_id: string;
  readonly status: TaskStatus;
  readonly result?: TaskResult;
  readonly challenge_type: ChallengeType;
  readonly payload: Payload;
  readonly reward: string;
  readonly deadline: number;
  readonly created_at: number;
  /** Extensions. */
  readonly creator_address: string;
  readonly funding_tx_hash: string;
  readonly worker_address: string | null;
  /** Extension: when the claim lapses without a result (chain time); null when unclaimed. */
  readonly claim_expires_at: number | null;
  readonly failure: { readonly reason: 'deadline' | 'reported'; readonly failed_at: number } | null;
  readonly result_tx_hash: string | null;
  readonly result_height: number | null;
  readonly payouts: readonly PayoutAnswer[];
}

/** GET /tasks */
export interface TaskListAnswer {
  readonly tasks: readonly {
    readonly task_id: string;
    readonly challenge_type: ChallengeType;
    readonly status: TaskStatus;
    readonly reward: string;
  }[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** POST /tasks/{task_id}/claim and /fail take a worker's signed statement (claims.ts). */
export type WorkerStatementRequest = WorkerSignature;

/** POST /tasks/{task_id}/claim */
export interface ClaimAnswer {
  readonly task_id: string;
  readonly status: 'in_progress';
  readonly worker_address: string;
  readonly claimed_at: number;
  /** Extension: chain time after which the claim lapses without a result (docs/MARKET.md, "Claims"). */
  readonly claim_expires_at: number;
}

/** POST /tasks/{task_id}/fail */
export interface FailAnswer {
  readonly task_id: string;
  readonly status: 'failed';
}

/** GET /market: what a creator needs to fund a task and a worker to sign. */
export interface MarketInfoAnswer {
  readonly chain_id: string;
  readonly escrow_address: string;
  /** The market's chain time (the last block it applied) and that block. */
  readonly chain_time: number;
  readonly height: number;
  readonly default_deadline_seconds: number;
  readonly max_deadline_seconds: number;
  /** A claim lapses without a result within this (chain time, at most the deadline). */
  readonly claim_window_seconds: number;
  /** Tasks one worker may hold in progress at once. */
  readonly max_claims_per_worker: number;
}
