/** The chain's gauges and counters in the node's metrics, brought up to a state after it is opened or a block is committed. */
import { type ChainState, epochAt, TX_TYPES } from '../chain/index.js';
import type { Mempool } from '../mempool/mempool.js';
import type { NodeMetrics } from '../metrics/metrics.js';

export class ChainGauges {
  /** What chain_transactions_total has been told so far, per type. */
  private readonly reported: Record<string, number> = {};

  constructor(
    private readonly metrics: NodeMetrics,
    private readonly mempool: Mempool,
  ) {}

  refresh(s: ChainState, txCounts: Readonly<Record<string, number>>): void {
    const m = this.metrics;
    m.blockHeight.set(s.height);
    m.epoch.set(epochAt(s.height, s.params.epochLength));
    m.mempoolSize.set(this.mempool.size);
    m.mempoolBytes.set(this.mempool.byteSize);
    m.accounts.set(s.accounts.size);
    m.validatorCount.set(s.validators.size);
    let active = 0;
    let jailed = 0;
    for (const v of s.validators.values()) {
      if (v.status === 'ACTIVE') active++;
      if (v.status === 'JAILED') jailed++;
    }
    m.activeValidators.set(active);
    m.jailedValidators.set(jailed);
    m.totalMinted.set(Number(s.totals.minted));
    m.totalBurned.set(Number(s.totals.burned));
    m.treasury.set(Number(s.totals.treasury));
    m.totalSupply.set(Number(s.totals.genesisSupply + s.totals.minted - s.totals.burned));
    // The counter follows the chain's own per-type counts (stored with each block), so it
    // shows the chain's totals also after a restart.
    for (const type of TX_TYPES) {
      const delta = (txCounts[type] ?? 0) - (this.reported[type] ?? 0);
      if (delta > 0) m.transactions.inc({ tx_type: type }, delta);
      this.reported[type] = txCounts[type] ?? 0;
    }
  }

  countMissedSlots(before: ChainState, after: ChainState): void {
    for (const [address, v] of after.validators) {
      const old = before.validators.get(address);
      const delta = v.slotsMissed - (old?.slotsMissed ?? 0);
      if (delta > 0) this.metrics.missedSlots.inc({ validator: address }, delta);
    }
  }
}
