/**
 * Prometheus and Grafana as every runtime gets them (monitoring/monitors.ts), against a runtime
 * that only records what it is handed: their configuration follows how the runtime lets a service
 * reach the nodes, what a runtime cannot run is said, and a runtime that finds nodes itself gets
 * discovery instead of a list. No program runs here (the runtime suite runs them for real).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { Layout } from '../../src/base/layout.js';
import { startMonitoring } from '../../src/operations/monitors.js';
import type {
  Capabilities,
  NodeHandle,
  Runtime,
  ServiceLaunch,
  ServiceReach,
  ServiceSkipped,
} from '../../src/runtime/runtime.js';
import { buildNetworkSpec } from '../../src/spec/networkSpec.js';

interface Started {
  readonly name: string;
  readonly args: string[];
  readonly env: Readonly<Record<string, string>>;
}

/** A runtime whose services see their home at /in/<name> and reach everything by name. */
function recordingRuntime(o: { skip?: Record<string, string>; discovery?: Capabilities['discovery'] }) {
  const started: Started[] = [];
  const reach = (home: string): ServiceReach => ({
    home: `/in/${home.split('/').at(-1)}`,
    host: '0.0.0.0',
    rpc: (n) => `http://${n.name}:9000`,
    service: (name, port) => `http://${name}:${port}`,
  });
  const runtime: Runtime = {
    kind: 'docker',
    capabilities: () => ({ machines: false, discovery: o.discovery ?? null }),
    prepare: async () => undefined,
    node: (name) => ({ name, state: async () => 'absent' }) as unknown as NodeHandle,
    serviceReach: reach,
    startService: async (s: ServiceLaunch): Promise<ServiceSkipped> => {
      const skipped = o.skip?.[s.name];
      if (skipped !== undefined) return skipped;
      const r = reach(s.home);
      started.push({ name: s.name, args: s.args(r), env: s.env?.(r) ?? {} });
      return null;
    },
    serviceUrl: async (port) => `http://127.0.0.1:${port}`,
    servicesPublishedOn: async () => null,
    teardown: async () => [],
  };
  return { runtime, started };
}

describe('monitors started once for every runtime', () => {
  let dir = '';
  let layout: Layout;
  const spec = buildNetworkSpec({
    manifest: { validators: 2, market: true },
    genesisTime: 1_700_000_000_000,
  });
  const ports = spec.monitoringPorts;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'monitors-'));
    layout = new Layout(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('Prometheus scrapes the nodes and the market where the runtime says a service reaches them; Grafana reads its home', async () => {
    const { runtime, started } = recordingRuntime({});
    const m = await startMonitoring(runtime, layout, spec, spec.nodes, () => undefined);
    assert.deepEqual(m, {
      prometheus: `http://127.0.0.1:${ports.prometheus}`,
      grafana: `http://127.0.0.1:${ports.grafana}`,
      notes: [],
    });
    const [prometheus, grafana] = started;
    assert.deepEqual(prometheus?.args, [
      '--config.file=/in/prometheus/prometheus.yml',
      '--storage.tsdb.path=/in/prometheus/data',
      `--web.listen-address=0.0.0.0:${ports.prometheus}`,
      '--web.enable-lifecycle',
    ]);
    const config = parse(
      await readFile(join(layout.monitoringDir, 'prometheus', 'prometheus.yml'), 'utf8'),
    ) as {
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    assert.deepEqual(
      config.scrape_configs.map((j) => [j.job_name, j.static_configs.flatMap((c) => c.targets)]),
      [
        ['chain', ['validator-0:9000', 'validator-1:9000']],
        ['chain-market', [`market:${spec.marketPort}`]],
      ],
    );
    assert.equal(grafana?.name, 'grafana');
    assert.equal(grafana.env.PROMETHEUS_URL, `http://prometheus:${ports.prometheus}`);
    assert.equal(grafana.env.GF_PATHS_PROVISIONING, '/in/grafana/provisioning');
    const home = join(layout.monitoringDir, 'grafana');
    assert.match(
      await readFile(join(home, 'provisioning', 'dashboards', 'chain.yml'), 'utf8'),
      /path: \/in\/grafana\/dashboards\n/,
    );
    assert.ok(
      (await readdir(join(home, 'dashboards'))).some((f) => f.endsWith('.json')),
      'the dashboards are in its home',
    );
  });

  test('a monitor the runtime cannot run is said, and Grafana is not started without Prometheus', async () => {
    const { runtime, started } = recordingRuntime({ skip: { prometheus: 'Prometheus skipped: none here' } });
    const m = await startMonitoring(runtime, layout, spec, spec.nodes, () => undefined);
    assert.deepEqual(m, {
      prometheus: null,
      grafana: null,
      notes: ['Prometheus skipped: none here', 'Grafana skipped: it needs Prometheus'],
    });
    assert.deepEqual(started, []);
  });

  test('a runtime that finds the nodes itself gets discovery, not a list', async () => {
    const discovery = {
      dockerHost: 'unix:///var/run/docker.sock',
      devnetLabel: { name: 'io.chain-devnet.devnet', value: layout.id },
      nodeLabel: 'io.chain-devnet.node',
      portLabel: 'io.chain-devnet.metrics-port',
      network: `devnet-${layout.id}`,
    };
    const { runtime } = recordingRuntime({ discovery });
    await startMonitoring(runtime, layout, spec, spec.nodes, () => undefined);
    const text = await readFile(join(layout.monitoringDir, 'prometheus', 'prometheus.yml'), 'utf8');
    assert.match(text, /dockerswarm_sd_configs/);
    assert.doesNotMatch(text, /validator-0:9000/);
  });
});
