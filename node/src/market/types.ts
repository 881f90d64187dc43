/**
 * What the market keeps of a task (store.ts writes it as JSON) and of a payment to its escrow.
 * Wire names (snake_case) throughout, so a record is also what an operator reads in the store.
 * Amounts in wei are decimal strings.
 */
import type { TxJson } from '../chain/index.js';
import type { ChallengeType } from './challenges.js';
import type { Share } from './split.js';

/** The specification's four states. */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** `funding`: the payment is sent, not yet final; not a task yet (no answer shows it). */
export type TaskState = TaskStatus | 'funding';

export interface PayoutRecord {
  readonly share: Share;
  readonly to_address: string;
  readonly amount: string;
  /** The escrow account's nonce, allocated when the plan was made. */
  readonly nonce: number;
  readonly tx_hash: string;
  /** The signed TRANSFER, sent again as it is (same bytes, same hash) until it is in a block. */
  readonly tx: TxJson;
  readonly status: 'planned' | 'confirmed';
  /** The block that holds it, once confirmed. */
  readonly height: number | null;
  /** Hashes of earlier signatures of this payment that failed in a block (each changed nothing). */
  readonly replaced: readonly string[];
}

/**
 * A task as the market acts on it. Its payload (up to 16 KiB of prompt) is not part of it: the
 * store keeps it apart, written once at intake, so memory holds none (docs/MARKET.md, "Memory").
 */
export interface TaskRecord {
  readonly task_id: string;
  readonly challenge_type: ChallengeType;
  /** Wei. */
  readonly reward: string;
  /** The deadline of the terms, or null (the market's default applies from created_at). */
  readonly terms_deadline: number | null;
  readonly status: TaskState;
  readonly funding: {
    readonly tx_hash: string;
    readonly from_address: string;
    readonly tx: TxJson;
  };
  /** From here on, set once the payment is final. */
  readonly created_at: number | null;
  readonly created_height: number | null;
  readonly deadline: number | null;
  readonly worker: {
    readonly address: string;
    readonly pub_key: string;
    /** The market's chain height when the claim was taken: only a SUBMIT_RESULT above it counts (the market applies later blocks only). */
    readonly claimed_height: number;
    readonly claimed_at: number;
    /**
     * Chain time after which the claim lapses without a result (docs/MARKET.md, "Claims"):
     * claimed_at + the claim window, at most the deadline. Absent in records written before the
     * rule: the store's loader fills it in.
     */
    readonly expires_at: number;
  } | null;
  /** Workers whose claim of this task lapsed: none of them may claim it again. */
  readonly lapsed?: readonly string[];
  readonly result: {
    readonly result_hash: string;
    readonly worker_address: string;
    readonly completed_at: number;
    readonly height: number;
    readonly tx_hash: string;
    /** The commit's signers, in its order, with their reward addresses: the validators' share. */
    readonly validators: readonly { readonly validator: string; readonly reward_address: string }[];
  } | null;
  readonly failure: {
    readonly reason: 'deadline' | 'reported';
    readonly failed_at: number;
    readonly height: number;
  } | null;
  /** Empty until planned; planned in one batch with the transition (or, short of float, later). */
  readonly payouts: readonly PayoutRecord[];
}

/** A payment to the escrow seen in a block, tied to its task once a POST names it. */
export interface DepositRecord {
  readonly tx_hash: string;
  readonly from_address: string;
  readonly amount: string;
  readonly memo: string;
  readonly height: number;
  readonly timestamp: number;
  readonly task_id: string | null;
}

export const isLive = (t: TaskRecord): boolean => t.status === 'pending' || t.status === 'in_progress';
export const isSettling = (t: TaskRecord): boolean =>
  (t.status === 'completed' || t.status === 'failed') && t.payouts.length === 0;
