/**
 * A devnet: its spec, its state file (devnet.json) and its runtime, made once per command and
 * handed to every operation (up, add, node faults, status, upgrade, down). It reaches nodes only
 * through their RPC and the runtime. Beside it, what it composes: a node's status (probe.ts), the
 * nodes added later (addedNodes.ts), the version and build each node runs (builds.ts), a new
 * devnet's home (newHome.ts), the wait for heights (readiness.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RpcClient } from '@chain-devnet/node/client';
import { peerKeyOf, peersOf, privateKeyOf, writeNodeHome } from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import { Layout } from '../base/layout.js';
import { type Fork, forkedSpec } from '../fork/spec.js';
import { BlockedPeers } from '../runtime/blockedPeers.js';
import { ChainControlFiles } from '../runtime/chainControl.js';
import { DiskFaultFiles } from '../runtime/diskFaults.js';
import { NetControl } from '../runtime/netConditions.js';
import { whyEnded } from '../runtime/nodeLog.js';
import type {
  NodeBuild,
  NodeEndpoint,
  NodeLaunch,
  PeerInfo,
  Progress,
  Runtime,
  RuntimeKind,
} from '../runtime/runtime.js';
import { createRuntime } from '../runtime/select.js';
import { manifestZones } from '../spec/manifest.js';
import { buildNetworkSpec, type NetworkSpec, type NodeSpec, type SpecInput } from '../spec/networkSpec.js';
import {
  type AddedNode,
  type DevnetState,
  type DevnetStatus,
  requireState,
  writeState,
} from '../state/devnetState.js';
import { DevnetEvents } from '../timeline/events.js';
import { type AddRequest, addedNodeSpecs, withAddedNode, withoutAddedNode } from './addedNodes.js';
import { NodeBuilds, versionOf } from './builds.js';
import { writeNewHome } from './newHome.js';
import type { NodeProbe, NodeStatus } from './nodeStatus.js';
import { probeNode } from './probe.js';
import { waitForHeights } from './readiness.js';

/**
 * What `up` has made and checked before a new devnet's home is written, handed down so that
 * nothing is made twice: the spec built once (a fork's genesis in it), the runtime made once (its
 * capabilities already asked).
 */
export interface NewDevnet {
  readonly layout: Layout;
  /** The pinned manifest and the genesis time: what devnet.json records to rebuild the spec. */
  readonly input: SpecInput;
  readonly spec: NetworkSpec;
  readonly runtime: Runtime;
  readonly fork?: Fork;
}

export class Devnet {
  private peerCache: PeerInfo[] | null = null;
  private readonly endpoints = new Map<string, Promise<NodeEndpoint>>();
  private readonly builds: NodeBuilds;
  /** Where long steps (a git version's build) say what they do: stderr unless set. */
  progress: Progress = (line) => process.stderr.write(`${line}\n`);
  /** Disconnect, connect and partition, the same on every runtime. */
  readonly faults: BlockedPeers;
  /** Latency, jitter, loss, rate, one-way cuts and zones, the same on every runtime. */
  readonly net: NetControl;
  /** The nodes' disk faults (a full disk, slow writes, unsynced writes lost), the same on every runtime. */
  readonly disk: DiskFaultFiles;
  /** The nodes' chain control files (operations/chainTime.ts holds, mines and moves time with them). */
  readonly control: ChainControlFiles;
  /** What the devnet did, on the timeline beside its nodes' logs (`devnet logs --all`). */
  readonly events: DevnetEvents;

  private constructor(
    readonly layout: Layout,
    public state: DevnetState,
    readonly spec: NetworkSpec,
    readonly runtime: Runtime,
  ) {
    this.events = new DevnetEvents(layout.eventsFile);
    const noted = (op: string) => (msg: string, fields: Readonly<Record<string, unknown>>) =>
      this.events.note(op, msg, fields);
    this.faults = new BlockedPeers(layout, runtime, noted('partition'));
    this.net = new NetControl(layout, runtime, () => manifestZones(this.state.input.manifest), noted('net'));
    this.disk = new DiskFaultFiles(layout, runtime, noted('disk'));
    this.control = new ChainControlFiles(layout, runtime);
    this.builds = new NodeBuilds(layout.home, () => this.progress);
  }

  /** The devnet in `home`, rebuilt from its devnet.json (every command but `up` of a new one). */
  static async open(home: string): Promise<Devnet> {
    const layout = new Layout(home);
    return Devnet.ofState(layout, await requireState(layout));
  }

  /** The devnet a devnet.json already read describes: its spec built and its runtime made, once. */
  static async ofState(layout: Layout, state: DevnetState): Promise<Devnet> {
    const spec = await forkedSpec(layout, state, buildNetworkSpec(state.input));
    return new Devnet(layout, state, spec, await createRuntime(state.runtime, layout, state.input.manifest));
  }

  /** A new devnet: its home written (newHome.ts) from what `up` built and checked. */
  static async create(n: NewDevnet): Promise<Devnet> {
    const state = await writeNewHome(n.layout, n.runtime.kind, n.input, n.spec, n.fork);
    return new Devnet(n.layout, state, n.spec, n.runtime);
  }

  /** This stopped devnet on another runtime (up moves one it resumes), devnet.json saying so. */
  async movedTo(kind: RuntimeKind): Promise<Devnet> {
    const state = { ...this.state, runtime: kind };
    await writeState(this.layout, state);
    return new Devnet(
      this.layout,
      state,
      this.spec,
      await createRuntime(kind, this.layout, state.input.manifest),
    );
  }

  /** Every node: the genesis validators and the ones added later. */
  get nodes(): NodeSpec[] {
    return [...this.spec.nodes, ...addedNodeSpecs(this.spec, this.state.added)];
  }

  node(name: string): NodeSpec {
    const n = this.nodes.find((x) => x.name === name);
    if (n === undefined)
      throw new DevnetError(
        'UNKNOWN_NODE',
        `no node named ${name} in this devnet (nodes: ${this.nodes.map((x) => x.name).join(', ')})`,
      );
    return n;
  }

  /** Where a started node is reached (asked of the runtime once per command). */
  endpoint(name: string): Promise<NodeEndpoint> {
    let e = this.endpoints.get(name);
    if (e === undefined) {
      e = this.runtime.node(name).endpoint(this.node(name));
      // A failed look-up is asked again next time.
      e.catch(() => this.endpoints.delete(name));
      this.endpoints.set(name, e);
    }
    return e;
  }

  async client(name: string, timeoutMs = 5_000): Promise<RpcClient> {
    return new RpcClient((await this.endpoint(name)).rpc, timeoutMs);
  }

  /** The machine the manifest places a node on, or null (the runtime chooses). */
  placementOf(name: string): string | null {
    const listed = this.state.input.manifest.validators;
    const i = this.spec.nodes.findIndex((n) => n.name === name);
    if (i >= 0) return (Array.isArray(listed) ? listed[i]?.placement : undefined) ?? null;
    return this.state.added.find((a) => a.name === name)?.placement ?? null;
  }

  async peers(): Promise<PeerInfo[]> {
    if (this.peerCache === null) this.peerCache = await peersOf(this.spec.seed, this.nodes);
    return this.peerCache;
  }

  /** Writes a node's home (genesis, keys) on the host, once; later starts reuse it and its data. */
  private async prepareHome(n: NodeSpec): Promise<string> {
    const home = this.layout.nodeHome(n.name);
    const existing = await readFile(join(home, 'genesis.json'), 'utf8').catch(() => null);
    if (existing === null) {
      await writeNodeHome(home, {
        genesis: this.spec.genesis,
        validatorKey: privateKeyOf(n.key),
        peerKey: await peerKeyOf(this.spec.seed, n.name),
      });
      // The chain control of the others (a node added to a held chain is held) and its own skew.
      const others = this.nodes.map((x) => x.name);
      await this.control.seed(n.name, others, n.clockSkewMs ?? 0);
    }
    return home;
  }

  /** The version a node runs (pinned form): the last upgrade's, else the manifest's, else checkout. */
  versionOf(name: string): string {
    return versionOf(this.state, this.spec, name);
  }

  /** The chain-node of a version (pinned form), found or built once per command. */
  build(version: string): Promise<NodeBuild> {
    return this.builds.build(version);
  }

  /** What starts a node: on its version unless another is given. */
  async launch(n: NodeSpec, version = this.versionOf(n.name)): Promise<NodeLaunch> {
    const home = await this.prepareHome(n);
    const peers = await this.peers();
    // The network conditions in force, whatever the node went through while down (netConditions.ts).
    await this.net.write(n.name, peers);
    return { node: n, build: await this.build(version), home, peers, placement: this.placementOf(n.name) };
  }

  async startNode(name: string): Promise<void> {
    this.endpoints.delete(name);
    await this.runtime.node(name).start(await this.launch(this.node(name)));
  }

  /** Waits until each named node answers with a final block at `minHeight` or above (readiness.ts). */
  waitForHeight(names: readonly string[], minHeight: number, timeoutMs: number): Promise<void> {
    return waitForHeights(
      names,
      minHeight,
      timeoutMs,
      async (name, answerMs) => (await (await this.client(name, answerMs)).status()).height,
      (name) => whyEnded(this.runtime, name),
    );
  }

  /**
   * A bound for chain progress that grows with the node count and the block time. Per node
   * 4 s: every node connects to every other, so start-up work grows with the square of the
   * count (21 validators on 2 cores took 41-72 s to their first block).
   */
  progressBound(blocks: number): number {
    return 15_000 + 4_000 * this.nodes.length + blocks * this.spec.blockTimeMs * 3;
  }

  async status(): Promise<NodeStatus[]> {
    return (await this.probe()).map((p) => p.status);
  }

  /** Every node's status with the /metrics text it came from (the panel charts the text too). */
  async probe(): Promise<NodeProbe[]> {
    return Promise.all(this.nodes.map((n) => probeNode(this, n)));
  }

  /** Records a node added to the running devnet (addedNodes.ts checks its name) and returns its spec. */
  async recordAdded(name: string | undefined, o: AddRequest): Promise<NodeSpec> {
    const added = withAddedNode(this.state, this.spec, this.nodes, name, o);
    await this.saveState(added.state);
    return this.node(added.name);
  }

  /** Forgets a node recorded by recordAdded whose start was refused before anything of it ran. */
  async forgetAdded(name: string): Promise<void> {
    await this.saveState(withoutAddedNode(this.state, name));
  }

  /** The nodes added to the devnet a restored archive was saved from, and their versions since (`up --from`). */
  async restoreAdded(added: readonly AddedNode[], versions?: DevnetState['versions']): Promise<void> {
    await this.saveState({
      ...this.state,
      added: [...added],
      ...(versions === undefined ? {} : { versions }),
    });
  }

  /** Records the version a node runs now (devnet upgrade, the supervisor). */
  async saveVersion(name: string, version: string): Promise<void> {
    await this.saveState({ ...this.state, versions: { ...this.state.versions, [name]: version } });
  }

  async saveMarketUrl(url: string): Promise<void> {
    await this.saveState({ ...this.state, market: url });
  }

  /** Records that the whole devnet is stopped or running (devnet.json's status). */
  async saveStatus(status: DevnetStatus): Promise<void> {
    await this.saveState({ ...this.state, status });
  }

  async saveMonitoring(m: DevnetState['monitoring']): Promise<void> {
    await this.saveState({ ...this.state, monitoring: m });
  }

  /** The state kept and written to devnet.json; the peer list is made again when the nodes changed. */
  private async saveState(next: DevnetState): Promise<void> {
    if (next.added !== this.state.added) this.peerCache = null;
    this.state = next;
    await writeState(this.layout, this.state);
  }
}
