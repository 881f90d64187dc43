/**
 * The load's tally and its report: what was submitted, received, rejected, confirmed, failed and
 * left pending, the sends again, the confirmation latencies (nearest-rank p50, p99), and the
 * first few reasons of rejections and failures (hashes and numbers folded, so alike reasons
 * count together).
 */

import { now } from '@chain-devnet/kit/wait';
import type { ReceiptAnswer } from '@chain-devnet/node/client';
import type { Flight } from './account.js';
import type { LoadTxType } from './options.js';

export interface LoadReport {
  /** Transactions answered: received by a node, or rejected by every node; sending one again is not counted again. */
  readonly submitted: number;
  readonly received: number;
  /** Refused by every node it was sent to (a node catching up may refuse what another takes). */
  readonly rejected: number;
  readonly confirmed: number;
  readonly failed: number;
  /** Received, but neither confirmed nor failed when the load stopped. */
  readonly pending: number;
  /** Sends again of a transaction in flight to another node: not decided in time, or its account's node did not answer or refused. */
  readonly resent: number;
  /** From the first send to the confirmation, in ms: median, 99th percentile, largest. */
  readonly latencyMs: {
    readonly p50: number | null;
    readonly p99: number | null;
    readonly max: number | null;
  };
  readonly elapsedMs: number;
  readonly confirmedByType: Readonly<Record<string, number>>;
  /** The first few reasons of rejections and failures, with their counts. */
  readonly reasons: Readonly<Record<string, number>>;
}

export interface LoadTx {
  readonly hash: string;
  readonly type: LoadTxType;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly height: number;
}

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export class Tally {
  private readonly latencies: number[] = [];
  /** Every transaction seen confirmed, in order. */
  readonly txs: LoadTx[] = [];
  private readonly counts = {
    submitted: 0,
    received: 0,
    rejected: 0,
    confirmed: 0,
    failed: 0,
    pending: 0,
    resent: 0,
  };
  private readonly reasons = new Map<string, number>();

  /** What it counted so far, over `elapsedMs`. */
  report(elapsedMs: number): LoadReport {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const byType: Record<string, number> = {};
    for (const t of this.txs) byType[t.type] = (byType[t.type] ?? 0) + 1;
    return {
      ...this.counts,
      latencyMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null },
      elapsedMs,
      confirmedByType: byType,
      reasons: Object.fromEntries(this.reasons),
    };
  }

  private reasonKey(r: string): string {
    return r
      .replace(/[0-9a-f]{64}/g, '<hash>')
      .replace(/\d+/g, 'N')
      .slice(0, 120);
  }

  private reason(r: string): void {
    const key = this.reasonKey(r);
    if (this.reasons.has(key) || this.reasons.size < 10)
      this.reasons.set(key, (this.reasons.get(key) ?? 0) + 1);
  }

  received(): void {
    this.counts.submitted++;
    this.counts.received++;
  }

  rejected(reason: string): void {
    this.counts.submitted++;
    this.counts.rejected++;
    this.reason(`rejected: ${reason}`);
  }

  resent(): void {
    this.counts.resent++;
  }

  /** Counts `f` confirmed; the transaction as the report lists it. */
  confirmed(f: Flight, receipt: ReceiptAnswer): LoadTx {
    const { tx, hash } = f;
    this.counts.confirmed++;
    this.latencies.push(now() - f.firstSentAt);
    const done: LoadTx = {
      hash,
      type: tx.type as LoadTxType,
      from: tx.from,
      to: tx.to ?? '',
      amount: tx.amount,
      fee: tx.fee,
      height: receipt.block_height!,
    };
    this.txs.push(done);
    return done;
  }

  failed(reason: string): void {
    this.counts.failed++;
    this.reason(`failed: ${reason}`);
  }

  /** Takes back a failure counted for a transaction that was included again after all. */
  failureUndone(reason: string): void {
    this.counts.failed--;
    const key = this.reasonKey(`failed: ${reason}`);
    const n = (this.reasons.get(key) ?? 0) - 1;
    if (n > 0) this.reasons.set(key, n);
    else this.reasons.delete(key);
  }

  pending(count: number, reason: string): void {
    this.counts.pending += count;
    this.reason(`pending: ${reason}`);
  }

  noAnswer(e: unknown): void {
    this.reason(`no node answered: ${(e as Error).message}`);
  }
}
