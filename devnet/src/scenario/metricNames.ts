/**
 * The sample names a node's /metrics has: every metric the node declares (node/src/metrics, the
 * one place that declares them), with the _bucket, _sum and _count samples of its histograms, so
 * that a file naming a metric no node exports (`chain_height`) is refused before any devnet starts.
 */
import { createMetrics } from '@chain-devnet/node/metrics';

let names: Promise<Set<string>> | null = null;

export function nodeMetricNames(): Promise<Set<string>> {
  names ??= createMetrics()
    .registry.getMetricsAsJSON()
    .then(
      (all) =>
        new Set(
          all.flatMap((m) =>
            ['histogram', 'summary'].includes(String(m.type))
              ? [m.name, `${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`]
              : [m.name],
          ),
        ),
    );
  return names;
}
