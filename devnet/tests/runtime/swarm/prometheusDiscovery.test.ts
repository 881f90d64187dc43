/**
 * The swarm runtime's Prometheus configuration: Docker Swarm service discovery of the devnet's
 * node tasks, at their overlay address and metrics port, labelled node=<name>. promtool checks
 * it (the swarm runtime suite shows it scraping every node of a real swarm).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findOnPath, runProgram } from '@chain-devnet/kit/process';
import { parse } from 'yaml';
import { renderSwarmPrometheusConfig } from '../../../src/monitoring/prometheusConfig.js';

const discovery = {
  dockerHost: 'unix:///var/run/docker.sock',
  devnetLabel: { name: 'io.chain-devnet.devnet', value: 'ab12cd34' },
  nodeLabel: 'io.chain-devnet.node',
  portLabel: 'io.chain-devnet.metrics-port',
  network: 'devnet-ab12cd34',
};

test('the devnet label, the metrics port and the network select the targets; the node label names them', () => {
  const config = parse(renderSwarmPrometheusConfig(discovery, { scrapeInterval: '1s' })) as {
    scrape_configs: {
      job_name: string;
      dockerswarm_sd_configs: { host: string; role: string }[];
      relabel_configs: {
        source_labels: string[];
        regex?: string;
        action?: string;
        target_label?: string;
        replacement?: string;
      }[];
    }[];
  };
  const job = config.scrape_configs[0]!;
  assert.equal(job.job_name, 'chain');
  assert.deepEqual(
    job.dockerswarm_sd_configs.map((c) => [c.host, c.role]),
    [['unix:///var/run/docker.sock', 'tasks']],
  );
  const keep = job.relabel_configs
    .filter((r) => r.action === 'keep')
    .map((r) => [r.source_labels[0], r.regex]);
  assert.deepEqual(keep, [
    ['__meta_dockerswarm_service_label_io_chain_devnet_devnet', 'ab12cd34'],
    ['__meta_dockerswarm_service_label_io_chain_devnet_metrics_port', '[0-9]+'],
    ['__meta_dockerswarm_network_name', 'devnet-ab12cd34'],
    ['__meta_dockerswarm_task_state', 'running'],
  ]);
  const address = job.relabel_configs.find((r) => r.target_label === '__address__')!;
  // Prometheus joins the source labels with ';': "10.0.1.5:8003;8000" becomes "10.0.1.5:8000".
  const joined = '10.0.1.5:8003;8000';
  assert.equal(
    joined.replace(new RegExp(`^(?:${address.regex})$`), address.replacement!.replace(/\$(\d)/g, '$$$1')),
    '10.0.1.5:8000',
  );
  const node = job.relabel_configs.find((r) => r.target_label === 'node')!;
  assert.deepEqual(node.source_labels, ['__meta_dockerswarm_service_label_io_chain_devnet_node']);
});

test('a network or label value with regex characters is matched literally', () => {
  const text = renderSwarmPrometheusConfig({ ...discovery, network: 'net.1' }, { scrapeInterval: '1s' });
  assert.match(text, /regex: "net\\\\.1"/);
});

test('the task market (--market) is scraped as its own job at its service name, after the nodes', () => {
  const market = { job: 'chain-market', address: 'devnet-ab12cd34-market:9093' };
  const config = parse(
    renderSwarmPrometheusConfig(discovery, { scrapeInterval: '1s', services: [market] }),
  ) as {
    scrape_configs: { job_name: string; static_configs?: { targets: string[] }[] }[];
  };
  assert.deepEqual(
    config.scrape_configs.map((j) => [j.job_name, j.static_configs?.[0]?.targets ?? null]),
    [
      ['chain', null],
      ['chain-market', ['devnet-ab12cd34-market:9093']],
    ],
  );
  assert.throws(
    () =>
      renderSwarmPrometheusConfig(discovery, {
        scrapeInterval: '1s',
        services: [{ job: 'chain-market', address: 'http://devnet-ab12cd34-market:9093' }],
      }),
    /job chain-market: address must be host:port/,
  );
});

test('promtool accepts it', async (t) => {
  const promtool = findOnPath('promtool');
  if (promtool === null) {
    if (process.env.CI === 'true') assert.fail('promtool is not installed (apt-get install prometheus)');
    return t.skip('promtool is not installed (apt-get install prometheus)');
  }
  const dir = await mkdtemp(join(tmpdir(), 'devnet-swarm-prom-'));
  try {
    const file = join(dir, 'prometheus.yml');
    await writeFile(
      file,
      renderSwarmPrometheusConfig(discovery, {
        scrapeInterval: '1s',
        services: [{ job: 'chain-market', address: 'devnet-ab12cd34-market:9093' }],
      }),
    );
    const r = await runProgram({ command: promtool, args: ['check', 'config', file] });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /SUCCESS/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
