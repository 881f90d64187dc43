/**
 * A devnet: its spec, its state file and its runtime, and the operations the commands use (up,
 * add, node faults, status, down). It reaches nodes only through their RPC and the runtime.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RpcClient } from '@chain-devnet/node/client';
import { portFree } from '@chain-devnet/node/harness';
import { networkNode, peerKeyOf, peersOf, privateKeyOf, writeNodeHome } from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import { Layout } from '../base/layout.js';
import { isName } from '../base/names.js';
import { type Fork, forkedSpec, withGenesis } from '../fork/spec.js';
import { sampleOf } from '../monitoring/exposition.js';
import { BlockedPeers } from '../runtime/blockedPeers.js';
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
import type { Manifest } from '../spec/manifest.js';
import {
  buildNetworkSpec,
  mergeFlags,
  type NetworkSpec,
  type NodeSpec,
  type SpecFlags,
} from '../spec/networkSpec.js';
import { ALL_NODES, MAX_NODES } from '../spec/ports.js';
import {
  type AddedNode,
  type DevnetState,
  type DevnetStatus,
  readState,
  requireState,
  writeState,
} from '../state/devnetState.js';
import { reportedVersion } from '../versions/nodeVersion.js';
import { nodeBuild, shortVersion } from '../versions/resolve.js';
import { CHECKOUT_VERSION } from '../versions/source.js';
import type { NodeProbe, NodeStatus } from './nodeStatus.js';
import { waitForHeights } from './readiness.js';

/** Fails with PORT_TAKEN naming the first port of the list that something already uses on 127.0.0.1. */
export async function checkPortsFree(ports: readonly { port: number; what: string }[]): Promise<void> {
  for (const { port, what } of ports) {
    if (!(await portFree(port)))
      throw new DevnetError(
        'PORT_TAKEN',
        `port ${port} (${what}) is already in use on 127.0.0.1: pass --base-port P to move the devnet, or stop what holds it (an old devnet: devnet down --home DIR)`,
      );
  }
}

export class Devnet {
  private peerCache: PeerInfo[] | null = null;
  private readonly endpoints = new Map<string, Promise<NodeEndpoint>>();
  private readonly builds = new Map<string, Promise<NodeBuild>>();
  /** Where long steps (a git version's build) say what they do: stderr unless set. */
  progress: Progress = (line) => process.stderr.write(`${line}\n`);
  /** Disconnect, connect and partition, the same on every runtime. */
  readonly faults: BlockedPeers;

  private constructor(
    readonly layout: Layout,
    public state: DevnetState,
    readonly spec: NetworkSpec,
    readonly runtime: Runtime,
  ) {
    this.faults = new BlockedPeers(layout, runtime);
  }

  static async open(home: string): Promise<Devnet> {
    const layout = new Layout(home);
    const state = await requireState(layout);
    const spec = await forkedSpec(layout, state, buildNetworkSpec(state.input));
    return new Devnet(layout, state, spec, await createRuntime(state.runtime, layout, state.input.manifest));
  }

  /** Every node: the genesis validators and the ones added later. */
  get nodes(): NodeSpec[] {
    return [
      ...this.spec.nodes,
      ...this.state.added.map((a) => ({
        ...networkNode(
          this.spec.seed,
          this.spec.basePort,
          a.index,
          a.name,
          a.stake === null ? null : BigInt(a.stake),
          false,
        ),
        byzantine: null,
        stateSync: a.stateSync ?? false,
      })),
    ];
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
    if (existing === null)
      await writeNodeHome(home, {
        genesis: this.spec.genesis,
        validatorKey: privateKeyOf(n.key),
        peerKey: await peerKeyOf(this.spec.seed, n.name),
      });
    return home;
  }

  /** The version a node runs (pinned form): the last upgrade's, else the manifest's, else checkout. */
  versionOf(name: string): string {
    const upgraded = this.state.versions?.[name];
    if (upgraded !== undefined) return upgraded;
    const listed = this.state.input.manifest.validators;
    const i = this.spec.nodes.findIndex((n) => n.name === name);
    return (i >= 0 && Array.isArray(listed) ? listed[i]?.version : undefined) ?? CHECKOUT_VERSION;
  }

  /** The chain-node of a version (pinned form), found or built once per command. */
  build(version: string): Promise<NodeBuild> {
    let b = this.builds.get(version);
    if (b === undefined) {
      b = nodeBuild(version, this.progress, { outside: this.layout.home });
      b.catch(() => this.builds.delete(version));
      this.builds.set(version, b);
    }
    return b;
  }

  /** Records the version a node runs now (devnet upgrade, the supervisor). */
  async saveVersion(name: string, version: string): Promise<void> {
    this.state = { ...this.state, versions: { ...this.state.versions, [name]: version } };
    await writeState(this.layout, this.state);
  }

  /** What starts a node: on its version unless another is given. */
  async launch(n: NodeSpec, version = this.versionOf(n.name)): Promise<NodeLaunch> {
    return {
      node: n,
      build: await this.build(version),
      home: await this.prepareHome(n),
      peers: await this.peers(),
      placement: this.placementOf(n.name),
    };
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
    return Promise.all(this.nodes.map((n) => this.probeNode(n)));
  }

  private async probeNode(n: NodeSpec): Promise<NodeProbe> {
    const handle = this.runtime.node(n.name);
    const [state, disconnected, endpoint] = await Promise.all([
      handle.state(),
      this.faults.isDisconnected(n.name),
      this.endpoint(n.name),
    ]);
    // Asked only of a node that is not running: the halt (3) and the refusal (4) are seen so.
    const exitCode = state === 'stopped' || state === 'absent' ? await handle.exitCode() : null;
    const client = new RpcClient(endpoint.rpc, 2_000);
    const down: NodeProbe = {
      status: {
        name: n.name,
        ...endpoint,
        state,
        exitCode,
        disconnected,
        up: false,
        height: null,
        lastHash: null,
        peers: null,
        round: null,
        validatorStatus: null,
        jailed: null,
        version: shortVersion(this.versionOf(n.name)),
        nodeVersion: null,
      },
      metrics: null,
    };
    if (state !== 'running') return down;
    try {
      const [status, validators, metrics, nodeVersion] = await Promise.all([
        client.status(),
        client.validators(),
        client.metrics(),
        reportedVersion(endpoint.rpc),
      ]);
      const me = validators.validators.find((v) => v.address === n.key.validator_address);
      return {
        status: {
          ...down.status,
          up: true,
          height: status.height,
          lastHash: status.last_hash,
          peers: sampleOf(metrics, 'chain_p2p_peers'),
          round: sampleOf(metrics, 'chain_consensus_round'),
          validatorStatus: me?.status ?? null,
          jailed: me?.is_jailed ?? null,
          nodeVersion,
        },
        metrics,
      };
    } catch {
      return down;
    }
  }

  /**
   * Records a node added to the running devnet (with the version it runs, pinned, when not the
   * checkout's) and returns its spec.
   */
  async recordAdded(
    name: string | undefined,
    o: {
      readonly stake: bigint | null;
      readonly placement?: string | null;
      readonly stateSync?: boolean;
      readonly version?: string | null;
    },
  ): Promise<NodeSpec> {
    const { stake, placement = null, stateSync = false, version = null } = o;
    const index = this.nodes.length;
    if (index >= MAX_NODES) throw new DevnetError('BAD_FLAG', `a devnet has at most ${MAX_NODES} nodes`);
    const chosen = name ?? `validator-${index}`;
    if (this.nodes.some((n) => n.name === chosen) || this.spec.accounts.some((a) => a.name === chosen))
      throw new DevnetError('BAD_FLAG', `--name ${chosen}: that name is taken in this devnet`);
    // `all` names every node where an operation has a whole-devnet form (devnet stop, start).
    if (chosen === ALL_NODES)
      throw new DevnetError('BAD_FLAG', `--name ${ALL_NODES}: that word means every node`);
    if (!isName(chosen))
      throw new DevnetError('BAD_FLAG', `--name ${chosen}: use lowercase letters, digits and dashes`);
    const added: AddedNode = {
      name: chosen,
      index,
      stake: stake === null ? null : stake.toString(),
      ...(placement === null ? {} : { placement }),
      ...(stateSync ? { stateSync } : {}),
    };
    this.state = {
      ...this.state,
      added: [...this.state.added, added],
      ...(version === null ? {} : { versions: { ...this.state.versions, [chosen]: version } }),
    };
    this.peerCache = null;
    await writeState(this.layout, this.state);
    return this.node(chosen);
  }

  /** Forgets a node recorded by recordAdded whose start was refused before anything of it ran. */
  async forgetAdded(name: string): Promise<void> {
    const { [name]: _, ...versions } = this.state.versions ?? {};
    this.state = { ...this.state, added: this.state.added.filter((a) => a.name !== name), versions };
    this.peerCache = null;
    await writeState(this.layout, this.state);
  }

  /** The nodes added to the devnet a restored archive was saved from, and their versions since (`up --from`). */
  async restoreAdded(added: readonly AddedNode[], versions?: DevnetState['versions']): Promise<void> {
    this.state = { ...this.state, added: [...added], ...(versions === undefined ? {} : { versions }) };
    this.peerCache = null;
    await writeState(this.layout, this.state);
  }

  async saveMarketUrl(url: string): Promise<void> {
    this.state = { ...this.state, market: url };
    await writeState(this.layout, this.state);
  }

  /** Records that the whole devnet is stopped or running (devnet.json's status). */
  async saveStatus(status: DevnetStatus): Promise<void> {
    this.state = { ...this.state, status };
    await writeState(this.layout, this.state);
  }

  async saveMonitoring(m: DevnetState['monitoring']): Promise<void> {
    this.state = { ...this.state, monitoring: m };
    await writeState(this.layout, this.state);
  }

  static async create(
    home: string,
    runtimeKind: RuntimeKind,
    manifest: Manifest,
    genesisTime: number,
    fork?: Fork,
  ): Promise<Devnet> {
    const layout = new Layout(home);
    if ((await readState(layout)) !== null)
      throw new DevnetError(
        'ALREADY_UP',
        `a devnet already lives in ${layout.home}: see devnet status, or devnet down first (or pass another --home)`,
      );
    const input = { manifest, genesisTime };
    const own = buildNetworkSpec(input);
    const spec = fork === undefined ? own : withGenesis(own, fork.genesis);
    await mkdir(layout.home, { recursive: true });
    if (fork !== undefined)
      await writeFile(layout.forkGenesisFile, `${JSON.stringify(fork.genesis, null, 2)}\n`);
    const state: DevnetState = {
      version: 1,
      runtime: runtimeKind,
      input,
      added: [],
      createdAt: new Date().toISOString(),
      monitoring: { prometheus: null, grafana: null, notes: [] },
      status: 'running',
      ...(fork === undefined ? {} : { fork: fork.record }),
    };
    await writeState(layout, state);
    await writeFile(
      layout.accountsFile,
      `${JSON.stringify(
        spec.accounts.map((a) => ({ name: a.name, ...a.key, balance: a.balance.toString() })),
        null,
        2,
      )}\n`,
      { mode: 0o600 },
    );
    return new Devnet(layout, state, spec, await createRuntime(runtimeKind, layout, manifest));
  }
}

export { mergeFlags, type NodeProbe, type NodeStatus, type Progress, type SpecFlags };
