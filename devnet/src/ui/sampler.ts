/**
 * The charts' samples: height, mempool, CPU and memory per node, transactions per second and
 * the block interval. From the devnet's Prometheus when it runs (its PromQL below, which the
 * monitoring test runs against a real one), otherwise from the /metrics texts the poller already
 * read from each node, with the rates over the same window Prometheus would use. A Prometheus
 * that stops answering falls back to the nodes for that poll.
 */

import { sampleOf, sumOf } from '../monitoring/exposition.js';
import { type PromMatrix, type PromVector, prometheusApi } from '../monitoring/prometheusApi.js';
import type { NodeSample, Sample, SampleSource } from './shapes.js';

/** Rates are over this window, in both sources. */
const RATE_WINDOW_S = 10;

/** Per node, by the `node` label every devnet scrape target carries (monitoring/prometheusConfig.ts). */
export const NODE_QUERIES: Readonly<Record<keyof NodeSample, string>> = {
  height: 'chain_block_height',
  mempool: 'chain_mempool_size',
  cpu: `rate(process_cpu_seconds_total[${RATE_WINDOW_S}s])`,
  memory: 'process_resident_memory_bytes',
};

/**
 * Of the whole chain: the busiest node's transaction rate, the nodes' mean block interval.
 * chain_transactions_total is labelled by type, so it has no series at all until a node has
 * included a transaction: then the rate is 0 (while nodes are scraped), not no value.
 */
export const CHAIN_QUERIES = {
  tps: `max(sum by (node) (rate(chain_transactions_total[${RATE_WINDOW_S}s]))) or (max(chain_block_height) * 0)`,
  blockInterval: `avg(rate(chain_block_interval_seconds_sum[${RATE_WINDOW_S}s]) / rate(chain_block_interval_seconds_count[${RATE_WINDOW_S}s]))`,
} as const;

/** A node's counters at one scrape: what the rates of the next samples are taken over. */
interface Counters {
  readonly t: number;
  readonly cpu: number | null;
  readonly txs: number | null;
  readonly intervalSum: number | null;
  readonly intervalCount: number | null;
}

export interface Scrape {
  readonly name: string;
  /** The node's /metrics text, or null when it did not answer. */
  readonly metrics: string | null;
}

const finite = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null);

/** (b − a) / seconds, or null when either is missing, no time passed, or the counter went back (a restart). */
function rate(a: number | null, b: number | null, seconds: number): number | null {
  if (a === null || b === null || seconds <= 0 || b < a) return null;
  return (b - a) / seconds;
}

/**
 * Samples from the nodes' /metrics texts. Keeps each node's counters of the last RATE_WINDOW_S
 * seconds (a few per node), so that a rate is over the window, not over one jittery poll.
 */
export class NodeScrapeSampler {
  private readonly history = new Map<string, Counters[]>();

  sample(t: number, scrapes: readonly Scrape[]): Sample {
    const nodes: Record<string, NodeSample> = {};
    const tps: number[] = [];
    const intervals: number[] = [];
    for (const { name, metrics } of scrapes) {
      if (metrics === null) {
        this.history.delete(name);
        nodes[name] = { height: null, mempool: null, cpu: null, memory: null };
        continue;
      }
      const now: Counters = {
        t,
        cpu: finite(sampleOf(metrics, 'process_cpu_seconds_total')),
        // A labelled counter has no series before its first transaction: none included yet.
        txs: finite(sumOf(metrics, 'chain_transactions_total') ?? 0),
        intervalSum: finite(sampleOf(metrics, 'chain_block_interval_seconds_sum')),
        intervalCount: finite(sampleOf(metrics, 'chain_block_interval_seconds_count')),
      };
      const kept = (this.history.get(name) ?? []).filter((c) => t - c.t <= RATE_WINDOW_S * 1000);
      const first = kept[0];
      const seconds = first === undefined ? 0 : (t - first.t) / 1000;
      const cpu = first === undefined ? null : rate(first.cpu, now.cpu, seconds);
      const txRate = first === undefined ? null : rate(first.txs, now.txs, seconds);
      if (txRate !== null) tps.push(txRate);
      const blocks = first === undefined ? null : rate(first.intervalCount, now.intervalCount, 1);
      const spent = first === undefined ? null : rate(first.intervalSum, now.intervalSum, 1);
      if (blocks !== null && spent !== null && blocks > 0) intervals.push(spent / blocks);
      this.history.set(name, [...kept, now]);
      nodes[name] = {
        height: finite(sampleOf(metrics, 'chain_block_height')),
        mempool: finite(sampleOf(metrics, 'chain_mempool_size')),
        cpu,
        memory: finite(sampleOf(metrics, 'process_resident_memory_bytes')),
      };
    }
    for (const name of this.history.keys())
      if (!scrapes.some((s) => s.name === name)) this.history.delete(name);
    return {
      t,
      nodes,
      tps: tps.length === 0 ? null : Math.max(...tps),
      blockInterval: intervals.length === 0 ? null : intervals.reduce((a, b) => a + b, 0) / intervals.length,
    };
  }
}

const value = (text: string): number | null => finite(Number(text));

async function instant(base: string, query: string, t: number, timeoutMs: number): Promise<PromVector> {
  const params = new URLSearchParams({ query, time: String(t / 1000) });
  const { data } = await prometheusApi(`${base}/api/v1/query?${params}`, timeoutMs);
  return data as PromVector;
}

async function range(
  base: string,
  query: string,
  from: number,
  to: number,
  stepMs: number,
  timeoutMs: number,
): Promise<PromMatrix> {
  const params = new URLSearchParams({
    query,
    start: String(from / 1000),
    end: String(to / 1000),
    step: `${stepMs / 1000}s`,
  });
  const { data } = await prometheusApi(`${base}/api/v1/query_range?${params}`, timeoutMs);
  return data as PromMatrix;
}

/** Samples from a Prometheus: one instant query per chart at a time, or a range for the history. */
export class PrometheusSampler {
  constructor(
    private readonly base: string,
    private readonly timeoutMs = 2_000,
  ) {}

  async sample(t: number, names: readonly string[]): Promise<Sample> {
    const nodeKeys = Object.keys(NODE_QUERIES) as (keyof NodeSample)[];
    const [perNode, tps, interval] = await Promise.all([
      Promise.all(nodeKeys.map((k) => instant(this.base, NODE_QUERIES[k], t, this.timeoutMs))),
      instant(this.base, CHAIN_QUERIES.tps, t, this.timeoutMs),
      instant(this.base, CHAIN_QUERIES.blockInterval, t, this.timeoutMs),
    ]);
    const nodes: Record<string, NodeSample> = {};
    for (const name of names) {
      const of = (v: PromVector) => {
        const s = v.result.find((r) => r.metric.node === name);
        return s === undefined ? null : value(s.value[1]);
      };
      nodes[name] = Object.fromEntries(nodeKeys.map((k, i) => [k, of(perNode[i]!)])) as unknown as NodeSample;
    }
    const scalar = (v: PromVector) => (v.result[0] === undefined ? null : value(v.result[0].value[1]));
    return { t, nodes, tps: scalar(tps), blockInterval: scalar(interval) };
  }

  /** Samples every `stepMs` from `from` to `to` (the charts' past, when the panel starts on a running devnet). */
  async history(from: number, to: number, stepMs: number, names: readonly string[]): Promise<Sample[]> {
    const nodeKeys = Object.keys(NODE_QUERIES) as (keyof NodeSample)[];
    const get = (q: string) => range(this.base, q, from, to, stepMs, this.timeoutMs * 5);
    const [perNode, tps, interval] = await Promise.all([
      Promise.all(nodeKeys.map((k) => get(NODE_QUERIES[k]))),
      get(CHAIN_QUERIES.tps),
      get(CHAIN_QUERIES.blockInterval),
    ]);
    // Prometheus's timestamps are seconds on the step grid: one sample per grid point with any value.
    type Mutable = { -readonly [K in keyof NodeSample]: NodeSample[K] };
    const empty = (): Mutable => ({ height: null, mempool: null, cpu: null, memory: null });
    const at = new Map<
      number,
      { nodes: Map<string, Mutable>; tps: number | null; blockInterval: number | null }
    >();
    const point = (ts: number) => {
      let p = at.get(ts);
      if (p === undefined) {
        p = { nodes: new Map(names.map((n) => [n, empty()])), tps: null, blockInterval: null };
        at.set(ts, p);
      }
      return p;
    };
    nodeKeys.forEach((k, i) => {
      for (const series of perNode[i]!.result) {
        const name = series.metric.node;
        if (name === undefined || !names.includes(name)) continue;
        for (const [ts, v] of series.values) {
          const n = point(ts).nodes.get(name)!;
          n[k] = value(v);
        }
      }
    });
    for (const [ts, v] of tps.result[0]?.values ?? []) point(ts).tps = value(v);
    for (const [ts, v] of interval.result[0]?.values ?? []) point(ts).blockInterval = value(v);
    return [...at.entries()]
      .sort(([a], [b]) => a - b)
      .map(([ts, p]) => ({
        t: Math.round(ts * 1000),
        nodes: Object.fromEntries(p.nodes),
        tps: p.tps,
        blockInterval: p.blockInterval,
      }));
  }
}

/** The sample of one poll, and where it came from. */
export class Sampler {
  private readonly nodes = new NodeScrapeSampler();
  private readonly prometheus: PrometheusSampler | null;
  source: SampleSource;

  constructor(prometheusUrl: string | null) {
    this.prometheus = prometheusUrl === null ? null : new PrometheusSampler(prometheusUrl);
    this.source = prometheusUrl === null ? 'nodes' : 'prometheus';
  }

  async sample(t: number, scrapes: readonly Scrape[]): Promise<Sample> {
    // Always, so that the nodes' rates are current the moment Prometheus stops answering.
    const fromNodes = this.nodes.sample(t, scrapes);
    if (this.prometheus !== null) {
      try {
        const s = await this.prometheus.sample(
          t,
          scrapes.map((x) => x.name),
        );
        this.source = 'prometheus';
        return s;
      } catch {
        // Prometheus stopped or is still starting: the nodes' own view for this poll.
      }
    }
    this.source = 'nodes';
    return fromNodes;
  }

  /** The charts' past from Prometheus, or nothing when none runs (the nodes keep no history). */
  async history(from: number, to: number, stepMs: number, names: readonly string[]): Promise<Sample[]> {
    if (this.prometheus === null) return [];
    return this.prometheus.history(from, to, stepMs, names).catch(() => []);
  }
}
