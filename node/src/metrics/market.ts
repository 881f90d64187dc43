/**
 * Every metric of the task market (chain-market), declared here and nowhere else, in the same
 * layer as the node's (metrics.ts); served at the market's own GET /metrics. Names carry the
 * chain's prefix and their units. The gauges are read from the market's state at each scrape
 * (`collect`), so they are right from the first scrape after a restart; the payout counters
 * start from the store's confirmed payouts.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { registerDefaultMetrics } from './metrics.js';

export interface MarketGaugeSource {
  /** Tasks by status and challenge type (funding excluded). */
  taskCounts(): ReadonlyMap<string, number>;
  followedHeight(): number;
  followLag(): number;
  floatWei(): bigint;
  unpaidPayouts(): number;
}

export function createMarketMetrics(registry: Registry = new Registry()) {
  const r = [registry];
  registerDefaultMetrics(registry);
  let source: MarketGaugeSource | null = null;
  const metrics = {
    registry,
    /** The state the gauges read from, set by the composition root once the market is open. */
    readFrom(s: MarketGaugeSource): void {
      source = s;
    },
    tasks: new Gauge({
      name: 'chain_market_tasks',
      help: 'Tasks by status and challenge type',
      labelNames: ['status', 'challenge_type'] as const,
      registers: r,
      collect() {
        this.reset();
        for (const [key, n] of source?.taskCounts() ?? []) {
          const [status = '', challenge_type = ''] = key.split('/');
          this.set({ status, challenge_type }, n);
        }
      },
    }),
    payouts: new Counter({
      name: 'chain_market_payouts_total',
      help: 'Payout transfers confirmed in a block, by share (burn, worker, validator, treasury, refund)',
      labelNames: ['share'] as const,
      registers: r,
    }),
    payoutWei: new Counter({
      name: 'chain_market_payout_wei_total',
      help: 'Wei paid out by confirmed payout transfers, by share',
      labelNames: ['share'] as const,
      registers: r,
    }),
    unpaid: new Gauge({
      name: 'chain_market_payouts_unpaid',
      help: 'Planned payout transfers not yet in a block',
      registers: r,
      collect() {
        this.set(source?.unpaidPayouts() ?? 0);
      },
    }),
    followedHeight: new Gauge({
      name: 'chain_market_followed_height',
      help: 'The last block the market has applied',
      registers: r,
      collect() {
        this.set(source?.followedHeight() ?? 0);
      },
    }),
    followLag: new Gauge({
      name: 'chain_market_follow_lag_blocks',
      help: "Blocks between the node's tip and the last block the market has applied",
      registers: r,
      collect() {
        this.set(source?.followLag() ?? 0);
      },
    }),
    float: new Gauge({
      name: 'chain_market_float_wei',
      help: "The escrow's float: its balance less every wei it owes (pays the payouts' fees)",
      registers: r,
      collect() {
        this.set(Number(source?.floatWei() ?? 0n));
      },
    }),
    requestDuration: new Histogram({
      name: 'chain_market_request_duration_seconds',
      help: 'Market HTTP request duration by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
      registers: r,
    }),
  };
  return metrics;
}

export type MarketMetrics = ReturnType<typeof createMarketMetrics>;
