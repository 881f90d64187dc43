/**
 * What a load is asked for (LoadOptions), and the check that it is bounded and usable before
 * anything is funded or sent: a duration or a count within limits, a rate, a mix of known types,
 * an account count, a window a node's mempool can hold.
 */
import { TestkitUsageError } from '../errors.js';
import type { Amount } from '../expect/accounts.js';

/** The fresh accounts a load sends from when it names none. */
export const DEFAULT_LOAD_ACCOUNTS = 4;

export const LOAD_TX_TYPES = ['TRANSFER', 'DELEGATE', 'UNDELEGATE'] as const;
export type LoadTxType = (typeof LOAD_TX_TYPES)[number];

/** At most an hour and a million transactions: a load is always bounded. */
const MAX_SECONDS = 3600;
const MAX_COUNT = 1_000_000;
/** A node queues at most 64 transactions per sender (the mempool's maxPerSender). */
const MAX_WINDOW = 64;

export interface LoadOptions {
  /** Transactions per second over all accounts (a target); default: as fast as the accounts go. */
  readonly rate?: number;
  /** Seconds to send for; with count, whichever ends first. One of the two is required. */
  readonly duration?: number;
  /** Transactions to submit in all. */
  readonly count?: number;
  /** Weights by type; default all TRANSFER. UNDELEGATE takes back part of an earlier DELEGATE (else it delegates). */
  readonly mix?: Partial<Record<LoadTxType, number>>;
  /** Fresh accounts funded from account-0 (default DEFAULT_LOAD_ACCOUNTS), or devnet account names to send from. */
  readonly accounts?: number | readonly string[];
  /** Each fresh account's funding; default 1000coin. */
  readonly fund?: Amount;
  /** The nodes to send to; default every node. */
  readonly nodes?: readonly string[];
  /** Transactions each account keeps in flight (consecutive nonces), 1 to 64; default 8. */
  readonly window?: number;
}

export function checkOptions(o: LoadOptions): void {
  if (o.duration === undefined && o.count === undefined)
    throw new TestkitUsageError('a load needs a duration (seconds) or a count: it is always bounded');
  if (o.duration !== undefined && !(o.duration > 0 && o.duration <= MAX_SECONDS))
    throw new TestkitUsageError(
      `duration must be a number of seconds from 0 to ${MAX_SECONDS}, got ${o.duration}`,
    );
  if (o.count !== undefined && !(Number.isInteger(o.count) && o.count > 0 && o.count <= MAX_COUNT))
    throw new TestkitUsageError(`count must be an integer from 1 to ${MAX_COUNT}, got ${o.count}`);
  if (o.rate !== undefined && !(o.rate > 0 && Number.isFinite(o.rate)))
    throw new TestkitUsageError(`rate must be a positive number of transactions per second, got ${o.rate}`);
  for (const [t, w] of Object.entries(o.mix ?? {}))
    if (!(LOAD_TX_TYPES as readonly string[]).includes(t) || !(typeof w === 'number' && w >= 0))
      throw new TestkitUsageError(`mix takes weights >= 0 of ${LOAD_TX_TYPES.join(', ')}, got ${t}: ${w}`);
  if (
    typeof o.accounts === 'number' &&
    !(Number.isInteger(o.accounts) && o.accounts >= 1 && o.accounts <= 256)
  )
    throw new TestkitUsageError(`accounts must be from 1 to 256, got ${o.accounts}`);
  if (o.window !== undefined && !(Number.isInteger(o.window) && o.window >= 1 && o.window <= MAX_WINDOW))
    throw new TestkitUsageError(`window must be an integer from 1 to ${MAX_WINDOW}, got ${o.window}`);
}
