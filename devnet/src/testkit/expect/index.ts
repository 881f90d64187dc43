/**
 * Every kind of assertion, as plain methods with plain-data arguments and a bound (so that a
 * scenario runner can drive them from a file): each waits until what it expects holds on every
 * named node, or fails with a TestkitError naming the step, the node, its height, what was
 * expected and what was found.
 */
import type { ReceiptAnswer, ValidatorAnswer } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';
import { type AccountExpectation, expectAccount } from './accounts.js';
import { expectLog, expectNoLog, type LogExpectation, type NoLogExpectation } from './logs.js';
import { expectMetric, type MetricExpectation } from './metrics.js';
import { expectHeight, expectSynced, type HeightExpectation, type SyncedExpectation } from './progress.js';
import { expectStalled, type StalledExpectation } from './stalled.js';
import { expectTx, type TxExpectation } from './txs.js';
import { expectValidator, type ValidatorExpectation } from './validators.js';

export class Expectations {
  constructor(private readonly net: NetContext) {}

  /** Every named node at a height or above. */
  height(e: HeightExpectation): Promise<Map<string, number>> {
    return expectHeight(this.net, e);
  }

  /** Every named node answering, at most maxLag (1) blocks behind the highest; the highest height. */
  synced(e: SyncedExpectation = {}): Promise<number> {
    return expectSynced(this.net, e);
  }

  /** No named node's height moves for `seconds` (no quorum anywhere); the heights they held. */
  stalled(e: StalledExpectation): Promise<Map<string, number>> {
    return expectStalled(this.net, e);
  }

  /** A transaction received, pending, confirmed (at one height, in the block) or failed. */
  tx(e: TxExpectation): Promise<Map<string, ReceiptAnswer>> {
    return expectTx(this.net, e);
  }

  /** An account's balance (exact, at least, at most) and nonce. */
  account(e: AccountExpectation): Promise<Map<string, { balance: bigint; nonce: number }>> {
    return expectAccount(this.net, e);
  }

  /** A validator's status (ACTIVE, INACTIVE, JAILED, EJECTED), jail count, power. */
  validator(e: ValidatorExpectation): Promise<Map<string, ValidatorAnswer>> {
    return expectValidator(this.net, e);
  }

  /** A metric compared with a number, another metric, or another node's. */
  metric(e: MetricExpectation): Promise<{ left: number; right: number }> {
    return expectMetric(this.net, e);
  }

  /** Log lines containing or matching, counted. */
  log(e: LogExpectation): Promise<Map<string, string[]>> {
    return expectLog(this.net, e);
  }

  /** No log line matching, over the log so far or for a window from now. */
  noLog(e: NoLogExpectation): Promise<void> {
    return expectNoLog(this.net, e);
  }
}

export type { AccountExpectation, Amount } from './accounts.js';
export type { Count, LogExpectation, NoLogExpectation } from './logs.js';
export { COMPARISONS, type Comparison, type MetricExpectation, type MetricRef } from './metrics.js';
export type { HeightExpectation, SyncedExpectation } from './progress.js';
export type { StalledExpectation } from './stalled.js';
export { TX_STATUSES, type TxExpectation, type TxStatus } from './txs.js';
export { VALIDATOR_STATUSES, type ValidatorExpectation, type ValidatorStatusName } from './validators.js';
