/**
 * Every transaction seen confirmed during a run (by the load generator, the wallet's sends, the
 * devnet-key transactions), with the height it was confirmed at: the "no confirmed transaction
 * lost" invariant checks each one on every node at the end.
 */
import type { AddResult } from '../operations/add.js';
import type { UpgradePlanResult } from '../operations/upgradePlan.js';

export interface ConfirmedTx {
  readonly hash: string;
  readonly height: number;
  /** Who saw it confirmed, for a failure's message (e.g. "load", "tx transfer from account-0"). */
  readonly by: string;
}

export class Ledger {
  private readonly confirmed = new Map<string, ConfirmedTx>();

  /** Records a confirmation; the same hash confirmed at another height is kept apart (a finding). */
  record(hash: string, height: number, by: string): void {
    const seen = this.confirmed.get(hash);
    if (seen === undefined) this.confirmed.set(hash, { hash, height, by });
    else if (seen.height !== height) this.confirmed.set(`${hash}@${height}`, { hash, height, by });
  }

  /** An added node's funding and STAKE (`devnet add --stake`), those confirmed. */
  recordAdded(r: AddResult): void {
    for (const t of [r.funding, r.stake])
      if (t?.receipt?.status === 'confirmed')
        this.record(t.tx_hash, t.receipt.block_height!, `devnet add ${r.name}`);
  }

  /** An upgrade plan's (or cancel's) transactions, signed by one validator after another. */
  recordPlan(r: UpgradePlanResult): void {
    for (const t of r.txs) this.record(t.tx_hash, t.block_height, `${r.target_version} plan from ${t.from}`);
  }

  all(): ConfirmedTx[] {
    return [...this.confirmed.values()];
  }

  get size(): number {
    return this.confirmed.size;
  }
}
