/**
 * The Grafana dashboards (issue 5): every file parses and queries the provisioned Prometheus
 * datasource, every metric a query names is one the node exports, the query list and the
 * Prometheus configuration are built right, and, against a real 4-validator devnet scraped by
 * Debian's `prometheus` binary, every query of every dashboard returns data.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findOnPath, runProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { NETWORK_PARAMS, type Tx } from '@chain-devnet/node/chain';
import { buildTx, RpcClient, RpcError } from '@chain-devnet/node/client';
import { hexToBytes } from '@chain-devnet/node/crypto';
import { createMarketMetrics, fundedRequest, MarketClient } from '@chain-devnet/node/market';
import { createMetrics } from '@chain-devnet/node/metrics';
import { repoRoot } from '../../src/base/repo.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { UpJson } from '../../src/json/jsonShapes.js';
import {
  type DashboardQuery,
  dashboardQueries,
  type GrafanaDashboard,
  listDashboardQueries,
  loadDashboards,
  panelsOf,
  parseLabelValues,
  queryName,
  substituteVariables,
} from '../../src/monitoring/dashboards.js';
import { durationMs, renderPrometheusConfig } from '../../src/monitoring/prometheusConfig.js';
import { queriesWithoutData, waitForData } from '../../src/monitoring/queryCheck.js';

const DASHBOARD_UIDS = ['chain-node-health', 'chain-overview', 'chain-validators'];
const IN_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const INSTALL_HINT =
  'install it with `apt-get install -y prometheus` (Debian: /usr/bin/prometheus and promtool)';

/** Metric names a query mentions (the node's prefixes, and Prometheus' own `up`). */
function metricNames(expr: string): string[] {
  const names = new Set<string>();
  for (const m of expr.matchAll(/\b((?:chain|process|nodejs)_[a-z0-9_]+|up)\b(?!\s*\()/g)) names.add(m[1]!);
  return [...names];
}

describe('dashboard files', () => {
  it('every dashboard parses, has a stable uid, a node variable and Prometheus targets on every panel', async () => {
    const loaded = await loadDashboards();
    assert.deepEqual(loaded.map((l) => l.dashboard.uid).sort(), DASHBOARD_UIDS);
    for (const { file, dashboard: d } of loaded) {
      const raw = JSON.parse(await readFile(file, 'utf8')) as { schemaVersion?: number };
      assert.ok(
        (raw.schemaVersion ?? 0) >= 36,
        `${file}: schemaVersion ${raw.schemaVersion} is older than Grafana 10`,
      );
      const node = d.templating?.list?.find((v) => v.name === 'node');
      assert.ok(node, `${d.title}: no node variable`);
      assert.equal(node.allValue, '.+', `${d.title}: $node must match every node when All is selected`);
      const panels = panelsOf(d);
      assert.ok(panels.length > 0, `${d.title}: no panels`);
      const ids = d.panels.map((p) => p.id);
      assert.equal(new Set(ids).size, ids.length, `${d.title}: duplicate panel ids`);
      for (const p of panels) {
        const targets = p.targets ?? [];
        assert.ok(
          targets.some((t) => typeof t.datasource === 'object' && t.datasource?.uid === 'prometheus'),
          `${d.title} / ${p.title}: no target with datasource uid prometheus`,
        );
        for (const t of targets)
          assert.ok(typeof t.expr === 'string' && t.expr !== '', `${d.title} / ${p.title}: empty query`);
      }
    }
  });

  it('the provisioned datasource has the uid the panels use and its URL from PROMETHEUS_URL', async () => {
    const yml = await readFile(
      join(repoRoot(), 'dashboards/provisioning/datasources/prometheus.yml'),
      'utf8',
    );
    assert.match(yml, /^\s+uid: prometheus$/m);
    assert.match(yml, /^\s+url: \$\{PROMETHEUS_URL\}$/m);
    const provider = await readFile(join(repoRoot(), 'dashboards/provisioning/dashboards/chain.yml'), 'utf8');
    assert.match(provider, /path: \/var\/lib\/grafana\/dashboards$/m);
  });

  it('query names are unique and every metric a query names is exported by the node', async () => {
    const exported = new Set<string>(['up']);
    const registries = [createMetrics().registry, createMarketMetrics().registry];
    for (const m of (await Promise.all(registries.map((r) => r.getMetricsAsJSON()))).flat()) {
      exported.add(m.name);
      if (String(m.type) === 'histogram')
        for (const s of ['_bucket', '_sum', '_count']) exported.add(`${m.name}${s}`);
    }
    const queries = await listDashboardQueries();
    assert.ok(queries.length >= 30, `only ${queries.length} queries`);
    const names = queries.map(queryName);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
      'query names (dashboard / panel / refId) must be unique',
    );
    for (const q of queries) {
      const text = q.kind === 'expr' ? q.expr : (q.match ?? '');
      for (const name of metricNames(text))
        assert.ok(exported.has(name), `${queryName(q)}: ${name} is not exported`);
    }
  });
});

describe('query extraction', () => {
  const dashboard: GrafanaDashboard = {
    uid: 'x',
    title: 'X',
    templating: {
      list: [
        {
          name: 'node',
          type: 'query',
          query: { query: 'label_values(chain_block_height{job="chain"}, node)' },
        },
        { name: 'q', type: 'custom', current: { value: ['0.9'] } },
      ],
    },
    panels: [
      {
        id: 1,
        title: 'Height',
        type: 'timeseries',
        targets: [
          { refId: 'A', expr: 'chain_block_height{node=~"$node"}' },
          { refId: 'B', expr: 'hidden', hide: true },
        ],
      },
      {
        id: 2,
        type: 'row',
        title: 'collapsed',
        panels: [
          {
            id: 3,
            title: 'Rate',
            type: 'timeseries',
            targets: [
              {
                refId: 'A',
                // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's ${var} syntax, not a template
                expr: 'histogram_quantile([[q]], rate(x_bucket{node=~"${node:regex}"}[$__rate_interval])) * $__interval_ms',
              },
            ],
          },
        ],
      },
      { id: 4, title: 'Text', type: 'text' },
    ],
  };

  it('lists variable and panel queries, rows included, hidden targets left out, variables substituted', () => {
    const qs = dashboardQueries(dashboard);
    assert.deepEqual(
      qs.map((q) => [queryName(q), q.kind === 'expr' ? q.expr : `${q.label} of ${q.match}`]),
      [
        ['X / variable $node / node', 'node of chain_block_height{job="chain"}'],
        ['X / Height / A', 'chain_block_height{node=~".+"}'],
        ['X / Rate / A', 'histogram_quantile(0.9, rate(x_bucket{node=~".+"}[1m])) * 15000'],
      ],
    );
    assert.equal(qs[1]!.kind === 'expr' && qs[1]!.raw, 'chain_block_height{node=~"$node"}');
  });

  it('refuses an unknown variable and leaves $1 of label_replace alone', () => {
    assert.throws(() => substituteVariables('x{node=~"$nod"}', { node: '.+' }), /unknown variable \$nod/);
    assert.equal(
      substituteVariables('label_replace(up, "n", "$1", "node", "(.*)")', {}),
      'label_replace(up, "n", "$1", "node", "(.*)")',
    );
  });

  it('parses label_values with and without a selector', () => {
    assert.deepEqual(parseLabelValues('label_values(node)'), { label: 'node', match: null });
    assert.deepEqual(parseLabelValues('label_values(up{job="chain"}, node)'), {
      label: 'node',
      match: 'up{job="chain"}',
    });
    assert.equal(parseLabelValues('query_result(up)'), null);
  });

  it('the repository dashboards give queries with no Grafana variable left', async () => {
    for (const q of await listDashboardQueries()) {
      const text = q.kind === 'expr' ? q.expr : (q.match ?? '');
      assert.doesNotMatch(text, /\$[A-Za-z_{]|\[\[/, queryName(q));
    }
  });
});

describe('Prometheus configuration', () => {
  const targets = [
    { name: 'validator-0', address: '127.0.0.1:8000' },
    { name: 'validator-1', address: 'validator-1:8000' },
  ];

  it('scrapes every node under job chain with its node label', () => {
    assert.equal(
      renderPrometheusConfig(targets, { scrapeInterval: '1s' }),
      [
        '# Generated by devnet (devnet/src/monitoring/prometheusConfig.ts): every node labelled node=<name>.',
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        '  evaluation_interval: 1s',
        '',
        'scrape_configs:',
        '  - job_name: "chain"',
        '    metrics_path: "/metrics"',
        '    static_configs:',
        '      - targets: ["127.0.0.1:8000"]',
        '        labels:',
        '          node: "validator-0"',
        '      - targets: ["validator-1:8000"]',
        '        labels:',
        '          node: "validator-1"',
        '',
      ].join('\n'),
    );
    assert.match(renderPrometheusConfig(targets, { scrapeInterval: '15s' }), /scrape_timeout: 10s\n/);
  });

  it('scrapes a service beside the nodes (the task market) as its own job, without a node label', () => {
    const yml = renderPrometheusConfig(targets, {
      scrapeInterval: '1s',
      services: [{ job: 'chain-market', address: '127.0.0.1:9093' }],
    });
    assert.ok(
      yml.endsWith(
        [
          '          node: "validator-1"',
          '  - job_name: "chain-market"',
          '    metrics_path: "/metrics"',
          '    static_configs:',
          '      - targets: ["127.0.0.1:9093"]',
          '',
        ].join('\n'),
      ),
      yml,
    );
    for (const bad of [
      { job: 'chain', address: '127.0.0.1:9093' },
      { job: 'chain-market', address: 'http://127.0.0.1:9093' },
    ])
      assert.throws(() => renderPrometheusConfig(targets, { scrapeInterval: '1s', services: [bad] }), /job/);
  });

  it('refuses bad intervals, duplicate names and addresses that are not host:port', () => {
    assert.equal(durationMs('1m30s'), 90_000);
    assert.equal(durationMs('500ms'), 500);
    assert.throws(
      () => renderPrometheusConfig(targets, { scrapeInterval: '1 second' }),
      /not a Prometheus duration/,
    );
    assert.throws(
      () => renderPrometheusConfig(targets, { scrapeInterval: '1s', scrapeTimeout: '2s' }),
      /longer/,
    );
    assert.throws(
      () => renderPrometheusConfig([targets[0]!, targets[0]!], { scrapeInterval: '1s' }),
      /twice/,
    );
    assert.throws(
      () =>
        renderPrometheusConfig([{ name: 'v', address: 'http://127.0.0.1:8000/metrics' }], {
          scrapeInterval: '1s',
        }),
      /host:port/,
    );
  });

  it('is accepted by promtool check config', async (t) => {
    const promtool = findOnPath('promtool');
    if (promtool === null) {
      if (IN_CI) assert.fail(`promtool is not installed: ${INSTALL_HINT}`);
      t.skip(`promtool is not installed: ${INSTALL_HINT}`);
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'devnet-promcfg-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'prometheus.yml');
    await writeFile(
      file,
      renderPrometheusConfig(targets, {
        scrapeInterval: '1s',
        services: [{ job: 'chain-market', address: '127.0.0.1:9093' }],
      }),
    );
    const r = await runProgram({ command: promtool, args: ['check', 'config', file] });
    assert.equal(r.code, 0, r.stderr);
  });
});

describe('a 4-validator devnet scraped by a real Prometheus', () => {
  it('every query of every dashboard returns data', { timeout: 300_000 }, async (t) => {
    const prometheus = findOnPath('prometheus');
    if (prometheus === null) {
      if (IN_CI) assert.fail(`prometheus is not installed: ${INSTALL_HINT}`);
      t.skip(`prometheus is not installed: ${INSTALL_HINT}`);
      return;
    }
    const queries = await listDashboardQueries();
    // Undone last first, also when the test fails: Prometheus, then the nodes, then the folders.
    const cleanups: (() => Promise<unknown>)[] = [];
    t.after(async () => {
      const errors: unknown[] = [];
      for (const undo of cleanups.reverse()) await undo().catch((e: unknown) => errors.push(e));
      if (errors.length > 0) throw errors[0];
    });

    // The devnet itself starts Prometheus (the process runtime runs the `prometheus` binary),
    // with the scrape configuration it generates: this is what a user gets from `devnet up`.
    const dir = await mkdtemp(join(tmpdir(), 'devnet-dashboards-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const home = join(dir, 'home');
    cleanups.push(() => devnetCli(['down', '--home', home]));
    const up = await devnetJson<UpJson>([
      'up',
      '--home',
      home,
      '--runtime',
      'process',
      '--block-time',
      '300ms',
      '--base-port',
      String(await freeDevnetBase(4, true, true)),
      '--seed',
      'dashboards',
      // The task market, scraped as its own job, for the market panels.
      '--market',
    ]);
    const promUrl = up.monitoring.prometheus;
    assert.ok(promUrl !== null, 'devnet up started Prometheus');
    const nodes = up.nodes.map((n) => ({ ...n, client: new RpcClient(n.rpc, 5_000) }));
    const height = async (i: number) => (await nodes[i]!.client.status()).height;
    const waitForHeight = (target: number, which = [0, 1, 2, 3]) =>
      waitFor(`nodes ${which.join(', ')} at height ${target}`, 60_000, async () =>
        (await Promise.all(which.map(height))).every((h) => h >= target),
      );
    await waitFor('Prometheus to be ready', 30_000, async () => (await fetch(`${promUrl}/-/ready`)).ok);
    await waitForHeight(3);

    // Transfers (two per sender, to different nodes), so that the transaction panels have data.
    const accounts = up.accounts;
    const chainId = NETWORK_PARAMS.devnet.chainId;
    const hashes: { hash: string; node: number }[] = [];
    let firstTx: Tx | null = null;
    for (let a = 0; a < 3; a++) {
      const client = nodes[a]!.client;
      const privateKey = hexToBytes(accounts[a]!.private_key!);
      const { nonce } = await client.balance(accounts[a]!.address);
      for (let k = 0; k < 2; k++) {
        const tx = await buildTx(client, {
          type: 'TRANSFER',
          privateKey,
          to: nodes[(a + 1) % 4]!.address,
          amount: 1000n + BigInt(k),
          nonce: nonce + k,
          chainId,
          timestamp: Math.floor(Date.now() / 1000),
        });
        firstTx ??= tx;
        const sent = await client.sendTx(tx);
        assert.equal(sent.status, 'received', sent.error);
        hashes.push({ hash: sent.tx_hash, node: a });
      }
    }
    for (const { hash, node } of hashes) {
      const r = await nodes[node]!.client.waitForReceipt(hash, 30_000);
      assert.equal(r.status, 'confirmed', `${hash}: ${r.error}`);
    }
    // A task the sample worker completes, for the market panels (tasks, payouts by share).
    const market = new MarketClient(up.market!, 30_000);
    const task = await market.createTask(
      await fundedRequest(nodes[0]!.client, await market.info(), hexToBytes(accounts[0]!.private_key!), {
        challenge_type: 'inference',
        payload: { model_id: 'm', prompt: 'p', max_tokens: 1 },
        reward: 1000n,
      }),
    );
    await waitFor('the task completed and paid', 60_000, async () => {
      const t = await market.task(task.task_id);
      return t.status === 'completed' && t.payouts.every((p) => p.status === 'confirmed');
    });
    // A refused submission (the first transfer again) and a 404, for the rejection and RPC error panels.
    const again = await nodes[0]!.client.sendTx(firstTx!);
    assert.equal(again.status, 'rejected');
    for (const n of nodes) {
      await assert.rejects(n.client.block(999_999_999), (e) => e instanceof RpcError && e.status === 404);
    }

    // A validator down for a while: the others count its missed proposer slots; back up, it syncs.
    assert.equal((await devnetCli(['stop', 'validator-3', '--home', home])).code, 0);
    const probe: DashboardQuery = {
      kind: 'expr',
      dashboard: 'test',
      panel: 'missed slots',
      refId: 'A',
      expr: 'sum(chain_missed_slots_total) > 0',
      raw: '',
    };
    await waitFor(
      'a missed slot of validator-3 in Prometheus',
      60_000,
      async () => (await queriesWithoutData(promUrl, [probe])).length === 0,
    );
    assert.equal((await devnetCli(['start', 'validator-3', '--home', home])).code, 0);
    await waitForHeight((await height(0)) + 2);

    const problems = await waitForData(promUrl, queries, { timeoutMs: 120_000, intervalMs: 1000 });
    const byName = new Map(problems.map((p) => [p.name, p.problem]));
    for (const q of queries) {
      await t.test(queryName(q), () => {
        const problem = byName.get(queryName(q));
        assert.equal(
          problem,
          undefined,
          `${queryName(q)}: ${problem}\n  ${q.kind === 'expr' ? q.expr : q.raw}`,
        );
      });
    }
  });
});
