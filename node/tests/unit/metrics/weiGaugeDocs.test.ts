/**
 * docs/PROTOCOL.md ("Supply") and docs/METRICS.md say the same about the wei gauges, and it is
 * what the node does: a gauge is a float64, so past 2^53 wei /metrics shows a rounded figure, and
 * the exact one is read from GET /supply. Both pages quote one observed pair (the exact
 * total_burned of GET /supply and the chain_total_burned line of /metrics); this test sets the
 * gauge as the node does (chainService: Number of the bigint) and checks that prom-client prints
 * exactly the line the pages quote, and that the pages quote the same pair.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMetrics } from '../../../src/metrics/metrics.js';

/** node/dist/tests/unit/metrics/ is five levels below the repository. */
const doc = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../../../docs/${name}`, import.meta.url)), 'utf8');

/** The pair a page quotes: `chain_total_burned N` and `"total_burned": "M"`. */
function quotedPair(text: string, page: string): { shown: string; exact: string } {
  const shown = /`chain_total_burned (\d+)`/.exec(text)?.[1];
  const exact = /`"total_burned": "(\d+)"`/.exec(text)?.[1];
  assert.ok(shown !== undefined && exact !== undefined, `${page} quotes no /metrics and /supply pair`);
  return { shown, exact };
}

describe('the wei gauges as the docs describe them', () => {
  const pages = { 'PROTOCOL.md': doc('PROTOCOL.md'), 'METRICS.md': doc('METRICS.md') };

  it('both pages quote the same pair, and /metrics shows the rounded figure the pages quote', async () => {
    const [protocol, metrics] = Object.entries(pages).map(([page, text]) => quotedPair(text, page));
    assert.deepEqual(protocol, metrics);
    const m = createMetrics();
    m.totalBurned.set(Number(BigInt(metrics!.exact)));
    const line = (await m.registry.metrics()).split('\n').find((l) => l.startsWith('chain_total_burned '));
    assert.equal(line, `chain_total_burned ${metrics!.shown}`);
    assert.notEqual(
      metrics!.shown,
      metrics!.exact,
      'the quoted figure is past 2^53, where a gauge is not exact',
    );
    assert.ok(BigInt(metrics!.exact) > 2n ** 53n);
  });

  it('both pages say that a gauge is a float64, exact to 2^53, and that exact figures come from GET /supply', () => {
    for (const [page, text] of Object.entries(pages)) {
      assert.match(text, /float64/, page);
      assert.match(text, /2\^53 wei/, page);
    }
    assert.match(pages['METRICS.md'], /Exact figures are read from the RPC: `GET \/supply`/);
    assert.match(pages['PROTOCOL.md'], /the place to read exact figures/);
  });
});
