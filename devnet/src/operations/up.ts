/**
 * `devnet up`: spec from manifest and flags, runtime chosen, homes written, every node started
 * at once, monitoring and the panel started, and a wait until every node has a final block. On a failure
 * part-way, everything already started is torn down again (no half devnet is left behind).
 */
import { readFile } from 'node:fs/promises';
import { checkPortsFree, Devnet } from '../devnet.js';
import { DevnetError } from '../errors.js';
import { Layout } from '../layout.js';
import { startMarketServices } from '../market.js';
import { panelUrl, startPanel } from '../panel/process.js';
import type { MonitoringEndpoints, Progress, RuntimeKind } from '../runtime/runtime.js';
import { createRuntime, resolveRuntime } from '../runtime/select.js';
import { type Manifest, parseManifestText } from '../spec/manifest.js';
import { buildNetworkSpec, mergeFlags, type SpecFlags } from '../spec/networkSpec.js';
import { takeDown } from './down.js';
import { startMonitoring } from './monitors.js';

export interface UpOptions {
  readonly home: string;
  readonly manifestPath: string | null;
  /** A manifest already checked (requireManifest), instead of a file: the testkit's. */
  readonly manifest?: Manifest;
  readonly flags: SpecFlags;
  readonly genesisTime: number;
  readonly progress: Progress;
  /** Writes what the devnet starts from into its new home before any node starts (`up --from`). */
  readonly fill?: (d: Devnet) => Promise<void>;
}

export interface UpResult {
  readonly devnet: Devnet;
  readonly runtime: RuntimeKind;
  readonly runtimeWhy: string;
  readonly monitoring: MonitoringEndpoints;
  /** The task market's URL (`--market`), or null. */
  readonly market: string | null;
  /** The panel's link (its secret in the fragment), or null without a panel. */
  readonly ui: string | null;
  readonly elapsedMs: number;
}

export async function loadManifest(path: string | null): Promise<Manifest> {
  if (path === null) return {};
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new DevnetError(
      'BAD_MANIFEST',
      `cannot read the manifest ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`,
    );
  }
  return parseManifestText(text, path);
}

/** The settings of a manifest that mean something on a runtime of several machines only (placement, engines, a registry). */
export function swarmSettings(m: Manifest): string[] {
  return [
    ...(m.registry === undefined ? [] : ['registry (--registry)']),
    ...(m.engines === undefined ? [] : ['engines']),
    ...(Array.isArray(m.validators)
      ? m.validators.flatMap((v, i) => (v.placement === undefined ? [] : [`validators[${i}].placement`]))
      : []),
  ];
}

/** Placement, engines and a registry mean something on a runtime of several machines only: elsewhere they are a mistake. */
function refuseSwarmSettings(m: Manifest, kind: RuntimeKind): void {
  const given = swarmSettings(m);
  if (given.length > 0)
    throw new DevnetError(
      'BAD_MANIFEST',
      `${given.join(', ')}: for the swarm runtime only (this devnet runs on ${kind}): use --runtime swarm, or leave them out`,
    );
}

export async function up(o: UpOptions): Promise<UpResult> {
  const started = Date.now();
  const manifest = mergeFlags(o.manifest ?? (await loadManifest(o.manifestPath)), o.flags);
  // Checked before anything is written or started: a bad manifest or a taken port costs nothing.
  const spec = buildNetworkSpec({ manifest, genesisTime: o.genesisTime });
  const { kind, why } = await resolveRuntime(spec.runtime);
  o.progress(`runtime: ${kind} (${why})`);
  // Asked of a runtime not yet used (its constructor touches nothing): refused before anything is made.
  if (!(await createRuntime(kind, new Layout(o.home), manifest)).capabilities().machines)
    refuseSwarmSettings(manifest, kind);
  await checkPortsFree([
    ...spec.nodes.flatMap((n) => [
      { port: n.rpcPort, what: `${n.name} RPC` },
      { port: n.p2pPort, what: `${n.name} p2p` },
    ]),
    ...(spec.monitoring
      ? [
          { port: spec.monitoringPorts.prometheus, what: 'Prometheus' },
          { port: spec.monitoringPorts.grafana, what: 'Grafana' },
        ]
      : []),
    ...(spec.marketPort === null ? [] : [{ port: spec.marketPort, what: 'task market' }]),
    ...(spec.ui ? [{ port: spec.uiPort, what: 'the panel' }] : []),
  ]);
  const devnet = await Devnet.create(o.home, kind, manifest, o.genesisTime);
  try {
    await o.fill?.(devnet);
    await devnet.runtime.prepare(o.progress);
    o.progress(`starting ${devnet.nodes.length} validators`);
    const launches = await Promise.all(devnet.nodes.map((n) => devnet.launch(n)));
    await Promise.all(launches.map((l) => devnet.runtime.node(l.node.name).start(l)));
    const monitoring: MonitoringEndpoints = spec.monitoring
      ? await startMonitoring(devnet.runtime, devnet.layout, spec, devnet.nodes, o.progress)
      : { prometheus: null, grafana: null, notes: ['monitoring off (--no-monitoring)'] };
    await devnet.saveMonitoring({ ...monitoring, notes: [...monitoring.notes] });
    // Before the wait, so that the nodes' start can be watched.
    const ui = spec.ui ? await startPanel(devnet) : null;
    if (ui !== null) o.progress(`panel: ${panelUrl(spec.uiPort)}`);
    o.progress('waiting for the first final block on every node');
    await devnet.waitForHeight(
      devnet.nodes.map((n) => n.name),
      1,
      devnet.progressBound(3),
    );
    // The market follows the chain from its first block, and its worker needs the market.
    let market: string | null = null;
    if (spec.marketPort !== null) {
      o.progress('starting the task market and a sample worker');
      market = await startMarketServices(devnet);
    }
    return {
      devnet,
      runtime: kind,
      runtimeWhy: why,
      monitoring,
      ui,
      market,
      elapsedMs: Date.now() - started,
    };
  } catch (e) {
    o.progress(`devnet up failed; removing what it started (logs kept in ${devnet.layout.home})`);
    await takeDown(devnet.layout, devnet.runtime, true).catch(() => undefined);
    throw e;
  }
}
