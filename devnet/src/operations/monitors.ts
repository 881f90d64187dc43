/**
 * Prometheus and Grafana for a devnet, on every runtime: one piece of code decides their
 * configuration (from how the runtime lets a service reach the nodes) and hands them to the
 * runtime as services, the way the task market is (runtime.ts ServiceLaunch). A runtime only
 * says where their programs come from and where their homes go.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layout } from '../base/layout.js';
import { writeGrafanaHome } from '../monitoring/grafanaHome.js';
import { monitorHome } from '../monitoring/monitorHome.js';
import {
  MARKET_JOB,
  MARKET_SERVICE_NAME,
  renderPrometheusConfig,
  renderSwarmPrometheusConfig,
} from '../monitoring/prometheusConfig.js';
import type {
  MonitoringEndpoints,
  Progress,
  Runtime,
  ServiceLaunch,
  ServiceReach,
} from '../runtime/runtime.js';
import type { NetworkSpec, NodeSpec } from '../spec/networkSpec.js';

const CONFIG_FILE = 'prometheus.yml';

/** host:port of a URL a service reaches (a scrape target's address). */
const hostPort = (url: string): string => new URL(url).host;

/** prometheus.yml as Prometheus reaches the nodes and the market on this runtime. */
function prometheusConfig(
  runtime: Runtime,
  spec: NetworkSpec,
  nodes: readonly NodeSpec[],
  reach: ServiceReach,
) {
  const o = {
    scrapeInterval: '1s',
    services:
      spec.marketPort === null
        ? []
        : [{ job: MARKET_JOB, address: hostPort(reach.service(MARKET_SERVICE_NAME, spec.marketPort)) }],
  };
  const discovery = runtime.capabilities().discovery;
  // Found by Prometheus itself (nodes that join later too), or listed.
  if (discovery !== null) return renderSwarmPrometheusConfig(discovery, o);
  return renderPrometheusConfig(
    nodes.map((n) => ({ name: n.name, address: hostPort(reach.rpc(n)) })),
    o,
  );
}

function prometheusLaunch(layout: Layout, port: number): ServiceLaunch {
  return {
    name: 'prometheus',
    program: 'prometheus',
    home: monitorHome(layout, 'prometheus'),
    port,
    args: (r) => [
      `--config.file=${r.home}/${CONFIG_FILE}`,
      `--storage.tsdb.path=${r.home}/data`,
      `--web.listen-address=${r.host}:${port}`,
      '--web.enable-lifecycle',
    ],
  };
}

function grafanaLaunch(layout: Layout, port: number, prometheusPort: number): ServiceLaunch {
  return {
    name: 'grafana',
    program: 'grafana',
    home: monitorHome(layout, 'grafana'),
    port,
    // The data path on the command line also marks a host process as this devnet's.
    args: (r) => [`cfg:default.paths.data=${r.home}/data`],
    env: (r) => ({
      PROMETHEUS_URL: r.service('prometheus', prometheusPort),
      GF_SERVER_HTTP_ADDR: r.host,
      GF_SERVER_HTTP_PORT: String(port),
      GF_PATHS_DATA: `${r.home}/data`,
      GF_PATHS_LOGS: `${r.home}/logs`,
      GF_PATHS_PROVISIONING: `${r.home}/provisioning`,
      GF_AUTH_ANONYMOUS_ENABLED: 'true',
      GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
    }),
  };
}

/** Starts Prometheus, then Grafana (which needs it); says what was skipped and why. */
export async function startMonitoring(
  runtime: Runtime,
  layout: Layout,
  spec: NetworkSpec,
  nodes: readonly NodeSpec[],
  progress: Progress,
): Promise<MonitoringEndpoints> {
  const ports = spec.monitoringPorts;
  const where = await runtime.servicesPublishedOn();
  const notes =
    where === null
      ? []
      : [
          `ports on the swarm: each node's RPC on every address of the machine running it, Prometheus and Grafana on ${where}; p2p on the devnet's overlay network only`,
        ];
  const suffix = where === null ? '' : ` (published on ${where})`;
  const prometheus = prometheusLaunch(layout, ports.prometheus);
  const prometheusUrl = await runtime.serviceUrl(ports.prometheus);
  const prometheusNode = runtime.node(prometheus.name);
  const running = (await prometheusNode.state()) === 'running';
  const reach = runtime.serviceReach(prometheus.home);
  await mkdir(prometheus.home, { recursive: true });
  await writeFile(join(prometheus.home, CONFIG_FILE), prometheusConfig(runtime, spec, nodes, reach));
  if (running && runtime.capabilities().discovery === null) {
    // Nodes joined: the new configuration goes where Prometheus reads it, and it reloads it.
    await prometheusNode.copyHomeFile(prometheus.home, CONFIG_FILE);
    await fetch(`${prometheusUrl}/-/reload`, { method: 'POST', signal: AbortSignal.timeout(5_000) }).catch(
      () => undefined,
    );
  }
  const promSkipped = await runtime.startService(prometheus, progress);
  if (promSkipped !== null)
    return {
      prometheus: null,
      grafana: null,
      notes: [...notes, promSkipped, 'Grafana skipped: it needs Prometheus'],
    };
  progress(`prometheus: ${prometheusUrl}${suffix}`);

  const grafana = grafanaLaunch(layout, ports.grafana, ports.prometheus);
  await writeGrafanaHome(grafana.home, runtime.serviceReach(grafana.home).home);
  const grafanaSkipped = await runtime.startService(grafana, progress);
  if (grafanaSkipped !== null)
    return { prometheus: prometheusUrl, grafana: null, notes: [...notes, grafanaSkipped] };
  const grafanaUrl = await runtime.serviceUrl(ports.grafana);
  progress(`grafana: ${grafanaUrl}${suffix}`);
  return { prometheus: prometheusUrl, grafana: grafanaUrl, notes };
}
