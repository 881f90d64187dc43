/**
 * `devnet up`: on a home with a devnet, that devnet resumed or reported (resume, below); otherwise a
 * new one, each thing made once and handed down (docs/ARCHITECTURE.md, "The way of a manifest
 * through devnet up"): the manifest pinned, the spec built from it, a fork's genesis fetched and
 * verified, the runtime chosen and made; every refusal before anything is written; then the
 * home written, every node started at once, monitoring and the panel started, and a wait until
 * every node has a final block. On a failure part-way, everything already started is torn down
 * again (no half devnet is left behind).
 */
import { readFile } from 'node:fs/promises';
import { portFree } from '@chain-devnet/kit/ports';
import { DevnetError } from '../base/errors.js';
import { Layout } from '../base/layout.js';
import { Devnet } from '../devnet/devnet.js';
import type { ForkTarget } from '../fork/source.js';
import { type Fork, withGenesis } from '../fork/spec.js';
import type { MonitoringEndpoints, Progress, RuntimeKind } from '../runtime/runtime.js';
import { createRuntime, resolveRuntime } from '../runtime/select.js';
import { type Manifest, parseManifestText } from '../spec/manifest.js';
import { pinManifestVersions } from '../spec/manifestVersions.js';
import { buildNetworkSpec, mergeFlags, type NetworkSpec, type SpecFlags } from '../spec/networkSpec.js';
import { pinProtocolVersion } from '../spec/protocolVersion.js';
import { type DevnetState, readState, statusOf } from '../state/devnetState.js';
import { takeDown } from './down.js';
import { forkOfManifest, prepareFork } from './fork.js';
import { startEverything } from './lifecycle.js';
import { marketUrl } from './market.js';

export interface UpOptions {
  readonly home: string;
  readonly manifestPath: string | null;
  /** A manifest already checked (requireManifest), instead of a file: the testkit's. */
  readonly manifest?: Manifest;
  readonly flags: SpecFlags;
  readonly genesisTime: number;
  readonly progress: Progress;
  /** `up --fork URL[@HEIGHT]`: start from that node's verified state (fork/), with this devnet's validators. */
  readonly fork?: ForkTarget;
  /** `--fork-genesis FILE`: the source's genesis (parsed JSON), whose validators anchor the fork's check. */
  readonly forkTrust?: unknown;
  /** A fork made before (`up --from` a forked devnet's archive): its record and genesis, not fetched again. */
  readonly forked?: Fork;
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
  /** `running`: it ran already (nothing was started); `resumed`: a stopped devnet started again; false: made now. */
  readonly resumed: false | 'resumed' | 'running';
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

/** Every port the spec gives the devnet on 127.0.0.1: the nodes', the monitors', the market's, the panel's. */
function portsOf(spec: NetworkSpec): { port: number; what: string }[] {
  return [
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
  ];
}

/** Fails with PORT_TAKEN naming the first port of the list that something already uses on 127.0.0.1. */
async function refusePortsTaken(ports: readonly { port: number; what: string }[]): Promise<void> {
  for (const { port, what } of ports) {
    if (!(await portFree(port)))
      throw new DevnetError(
        'PORT_TAKEN',
        `port ${port} (${what}) is already in use on 127.0.0.1: pass --base-port P to move the devnet, or stop what holds it (an old devnet: devnet down --home DIR)`,
      );
  }
}

export async function up(o: UpOptions): Promise<UpResult> {
  const began = Date.now();
  const layout = new Layout(o.home);
  // A devnet lives here already: resumed when stopped, reported when running.
  const kept = await readState(layout);
  if (kept !== null) return resume(o, layout, kept, began);
  // Each version pinned (a ref's commit, an absolute path) and checked before anything is made,
  // and the genesis protocol version written down (devnet.json keeps it as this checkout moves on).
  const manifest = pinProtocolVersion(
    await pinManifestVersions(mergeFlags(o.manifest ?? (await loadManifest(o.manifestPath)), o.flags)),
  );
  const input = { manifest, genesisTime: o.genesisTime };
  // Built once, here, and handed down: a bad manifest is refused before anything is written.
  const own = buildNetworkSpec(input);
  // Fetched and verified before anything is written or started: a lying source costs nothing.
  const target = o.forked === undefined ? (o.fork ?? forkOfManifest(manifest)) : undefined;
  const fork =
    target === undefined
      ? o.forked
      : await prepareFork(target, o.forkTrust ?? null, own, manifest, o.progress);
  const spec = fork === undefined ? own : withGenesis(own, fork.genesis);
  const { kind, why } = await resolveRuntime(spec.runtime);
  o.progress(`runtime: ${kind} (${why})`);
  // Made once (a runtime's constructor touches nothing), asked what it can do, and handed down.
  const runtime = await createRuntime(kind, layout, manifest);
  if (!runtime.capabilities().machines) refuseSwarmSettings(manifest, kind);
  await refusePortsTaken(portsOf(spec));
  // The first write: everything above refuses before it.
  const devnet = await Devnet.create({
    layout,
    input,
    spec,
    runtime,
    ...(fork === undefined ? {} : { fork }),
  });
  try {
    await o.fill?.(devnet);
    devnet.events.note('up', `up: ${devnet.nodes.length} nodes on ${kind}`, { runtime: kind });
    await devnet.runtime.prepare(o.progress);
    const started = await startEverything(devnet, false, o.progress);
    return {
      devnet,
      runtime: kind,
      runtimeWhy: why,
      ...started,
      elapsedMs: Date.now() - began,
      resumed: false,
    };
  } catch (e) {
    o.progress(`devnet up failed; removing what it started (logs kept in ${devnet.layout.home})`);
    await takeDown(devnet.layout, devnet.runtime, true).catch(() => undefined);
    throw e;
  }
}

/** Whether any node of the devnet runs (or is frozen): then it is not to be started again. */
async function anyNodeUp(d: Devnet): Promise<boolean> {
  const states = await Promise.all(d.nodes.map((n) => d.runtime.node(n.name).state()));
  return states.some((s) => s === 'running' || s === 'paused');
}

/** The runtimes whose nodes keep their homes in the devnet's folder on this machine. */
const ON_THIS_MACHINE: readonly RuntimeKind[] = ['process', 'threads'];

/**
 * Moves a stopped devnet to another runtime. Between process and threads nothing moves: both run
 * the nodes from their homes here. To docker: a node's whole home, its data included, is copied
 * into its new volume when its container is made (as every first start does), Prometheus's and
 * the market's the same; so the move is devnet.json's word. From docker (the data in volumes)
 * and to or from swarm (volumes on other machines): not done, refused.
 */
async function moveRuntime(d: Devnet, kind: RuntimeKind, progress: Progress): Promise<Devnet> {
  if (!ON_THIS_MACHINE.includes(d.state.runtime) || !(kind === 'docker' || ON_THIS_MACHINE.includes(kind)))
    throw new DevnetError(
      'BAD_FLAG',
      `--runtime ${kind}: this devnet was made on ${d.state.runtime}; a stopped devnet moves from process or threads to docker, and between process and threads, only (leave --runtime out to resume it on ${d.state.runtime})`,
    );
  progress(
    `moving the devnet from ${d.state.runtime} to ${kind}${kind === 'docker' ? ': node homes go into volumes' : ''}`,
  );
  return d.movedTo(kind);
}

/** `up` on a home with a devnet (its devnet.json `kept`, read by up): reported when it runs, else started again. */
async function resume(o: UpOptions, layout: Layout, kept: DevnetState, began: number): Promise<UpResult> {
  let devnet = await Devnet.ofState(layout, kept);
  if (statusOf(kept) === 'running' && (await anyNodeUp(devnet)))
    return {
      devnet,
      runtime: kept.runtime,
      runtimeWhy: 'it runs already',
      monitoring: kept.monitoring,
      market: marketUrl(devnet),
      ui: null,
      elapsedMs: Date.now() - began,
      resumed: 'running',
    };
  // The devnet is what it was made as: only --runtime has a say in its resume.
  const ignored = Object.keys(o.flags).filter((k) => k !== 'runtime');
  if (o.manifestPath !== null || o.manifest !== undefined) ignored.unshift('the manifest');
  if (ignored.length > 0)
    o.progress(`resuming: ${ignored.join(', ')} ignored (the devnet keeps what it was made with)`);
  const wanted = o.flags.runtime;
  if (wanted !== undefined && wanted !== 'auto' && wanted !== kept.runtime)
    devnet = await moveRuntime(devnet, wanted, o.progress);
  o.progress(`resuming the devnet in ${devnet.layout.home} on ${devnet.state.runtime}`);
  devnet.events.note('up', `up: resumed on ${devnet.state.runtime}`, { runtime: devnet.state.runtime });
  await devnet.runtime.prepare(o.progress);
  const started = await startEverything(devnet, true, o.progress);
  return {
    devnet,
    runtime: devnet.state.runtime,
    runtimeWhy: 'resumed where it stopped',
    ...started,
    elapsedMs: Date.now() - began,
    resumed: 'resumed',
  };
}
