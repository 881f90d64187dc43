/**
 * A whole network of validators in one process, on the simulation's edges: the virtual clock
 * (scheduler.ts), the simulated network (simNetwork.ts), in-memory disks and keys drawn from the
 * seed. Above those edges each node is the node's own code (simNode.ts). The cluster is driven
 * from outside, one call at a time: run the clock to a time or until a condition holds, apply a
 * fault, read the nodes. The seed run (simulate.ts) and the scenario files on the simulation
 * (the devnet's `devnet test --runtime sim`) both drive it so, which is why a seed's failure
 * written as a scenario replays to the same run.
 */
import { blockHash, loadGenesis } from '../chain/index.js';
import type { HttpTransport } from '../client/jsonHttp.js';
import { bytesToHex, sha256 } from '../crypto/index.js';
import { NO_DISK_FAULTS, noDiskFault } from '../disk/faults.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import {
  generateNetwork,
  type Network,
  type NetworkNode,
  networkNode,
  privateKeyOf,
} from '../testnet/index.js';
import { evidenceProblems } from './evidence.js';
import { applyFault, type SimAction } from './faults.js';
import { type SimRandom, seededRandom } from './random.js';
import { SimScheduler } from './scheduler.js';
import { useSharedVerifier } from './sharedVerifier.js';
import { SimLoad, type SimLoadOptions, type SimSender } from './simLoad.js';
import { DEFAULT_LINK, type LinkModel, SimNetwork } from './simNetwork.js';
import { SimNode, type SimWorld } from './simNode.js';
import { simRpcTransport, simRpcUrl } from './simRpc.js';
import { SimWaitClock } from './simWaitClock.js';

export interface ClusterOptions {
  readonly seed: string;
  readonly validators: number;
  readonly blockTimeMs?: number;
  readonly link?: LinkModel;
  /** The driver's start grace (default 0: the simulation's nodes start together). */
  readonly startGraceMs?: number;
  /** Genesis parameters over the devnet's (snake_case, as a manifest's: epoch_length, max_validators …). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** TEST ONLY: validators that equivocate (chain-node's --byzantine), by name. */
  readonly byzantine?: Readonly<Record<string, ByzantineMode>>;
  /** Funded accounts account-0 … (default 1), the senders a load may use. */
  readonly accounts?: number;
  /** Every node records its consensus core (SimNode.record), as chain-node --record-consensus. */
  readonly record?: boolean;
  /** The genesis's protocol version (default the newest this build runs): an older one to upgrade from. */
  readonly protocolVersion?: string;
}

/** A node to add to the running network (SimCluster.add): its name (default validator-INDEX), whether it joins by state sync. */
export interface AddNode {
  readonly name?: string;
  readonly stateSync?: boolean;
}

/** What the chains of a run show: each node's header hashes, the fingerprint, the forks. */
export interface ClusterChains {
  /** Each node's committed height. */
  readonly heights: Readonly<Record<string, number>>;
  /** Each node's header hashes, height 1 first ('' below the snapshot a joiner by state sync started from). */
  readonly hashes: Readonly<Record<string, readonly string[]>>;
  /** SHA-256 over every node's name and header hashes, in node order. */
  readonly fingerprint: string;
  /** Heights at which two nodes committed different blocks (a safety failure). */
  readonly forks: readonly number[];
  /** Proposer slots missed on the first node's chain: a block decided in round r missed r. */
  readonly missedSlots: number;
}

/** The virtual time a node's start may take (a state sync gives up well within it: block sync then). */
const START_BOUND_MS = 600_000;

/** The genesis time of every simulated chain: a run's timestamps depend on its seed alone. */
const SIM_GENESIS_TIME = 1_800_000_000;

export class SimCluster {
  private readonly nodes = new Map<string, SimNode>();
  /** The nodes added to the running network (`add`), in order: their keys as a devnet's added nodes'. */
  private readonly addedNodes: NetworkNode[] = [];
  private world: SimWorld | null = null;
  /** Whether its nodes record their consensus core (ClusterOptions.record): a node added too. */
  private recording = false;
  private startedAt = 0;
  /** The funded accounts of the network (developer accounts), with their keys. */
  senders: SimSender[] = [];
  private loads: SimLoad[] = [];
  private constructor(
    readonly seed: string,
    readonly blockTimeMs: number,
    readonly random: SimRandom,
    readonly scheduler: SimScheduler,
    readonly network: SimNetwork,
    /** The network as generated from the seed: its genesis, each node's and account's keys. */
    readonly generated: Network,
  ) {}

  /** Every validator of a network generated from the seed, started. */
  static async open(o: ClusterOptions): Promise<SimCluster> {
    const blockTimeMs = o.blockTimeMs ?? 1000;
    useSharedVerifier();
    const random = seededRandom(o.seed);
    const scheduler = new SimScheduler(SIM_GENESIS_TIME * 1000 + 1000);
    const network = new SimNetwork(scheduler, random.fork('network'), o.link ?? DEFAULT_LINK);
    const generated = generateNetwork({
      seed: `sim:${o.seed}`,
      validators: o.validators,
      developerAccounts: o.accounts ?? 1,
      basePort: 20_000,
      genesisTime: SIM_GENESIS_TIME,
      ...(o.protocolVersion === undefined ? {} : { protocolVersion: o.protocolVersion }),
      params: {
        // A network larger than the chain's default set (100) is simulated whole.
        ...(o.validators > 100 ? { max_validators: o.validators } : {}),
        ...o.params,
        block_time_ms: blockTimeMs,
      },
    });
    const cluster = new SimCluster(o.seed, blockTimeMs, random, scheduler, network, generated);
    const genesis = loadGenesis(generated.genesis);
    if (!genesis.ok) throw new Error(`the simulated genesis is invalid: ${genesis.problems.join('; ')}`);
    const world: SimWorld = {
      scheduler,
      network,
      genesis: genesis.genesis,
      blockTimeMs,
      startGraceMs: o.startGraceMs ?? 0,
    };
    for (const name of Object.keys(o.byzantine ?? {}))
      if (!generated.nodes.some((n) => n.name === name))
        throw new Error(
          `byzantine: no validator ${name} in the simulation (validator-0 … validator-${o.validators - 1})`,
        );
    cluster.world = world;
    cluster.recording = o.record === true;
    cluster.senders = generated.accounts.map((a) => ({
      address: a.key.address,
      privateKey: privateKeyOf(a.key),
    }));
    for (const n of generated.nodes)
      cluster.nodes.set(
        n.name,
        new SimNode(n.name, privateKeyOf(n.key), world, random.fork(`node ${n.name}`), {
          byzantine: o.byzantine?.[n.name] ?? null,
          record: o.record === true,
        }),
      );
    try {
      for (const n of cluster.nodes.values()) await n.start();
    } catch (e) {
      await cluster.close();
      throw e;
    }
    cluster.startedAt = scheduler.now;
    return cluster;
  }

  get names(): string[] {
    return [...this.nodes.keys()];
  }

  /** Every node of the network, the genesis validators then the added ones: its name, index and key. */
  get members(): readonly NetworkNode[] {
    return [...this.generated.nodes, ...this.addedNodes];
  }

  /**
   * A node joins the running network (`devnet add`): named `name` (default validator-INDEX, its
   * index the next one), its key from the seed as a devnet's added node's (networkNode), no stake
   * (a full node until it stakes), an empty disk; by state sync first when `stateSync` (a verified
   * snapshot of its peers), else block sync from genesis. Started when this resolves: the clock
   * runs while it starts (a state sync's requests take virtual time).
   */
  async add(o: AddNode = {}): Promise<SimNode> {
    const { node, started } = this.join(o);
    await this.runWhile(started, `${node.name}'s start`);
    return node;
  }

  /**
   * add() without running the clock: the node registered and its start under way, `started`
   * settling once it is up (or failed: then it is no longer in the network). For a driver whose
   * waits run the clock (the testkit's, on SimWaitClock), which waits for `started` so.
   */
  join(o: AddNode = {}): { node: SimNode; started: Promise<void> } {
    const index = this.nodes.size;
    const name = o.name ?? `validator-${index}`;
    if (this.nodes.has(name) || this.generated.accounts.some((a) => a.name === name))
      throw new Error(`a node named ${name} cannot be added: that name is taken in the simulation`);
    const added = networkNode(this.generated.seed, this.generated.basePort, index, name, null, false);
    const node = new SimNode(name, privateKeyOf(added.key), this.world!, this.random.fork(`node ${name}`), {
      stateSync: o.stateSync === true,
      record: this.recording,
    });
    // As a devnet seeds a new home's chain_control.json: the others' chain-wide control, no skew.
    const first = this.nodes.values().next().value;
    if (first !== undefined) node.setChainControl({ ...first.chainControl, clockSkewMs: 0 });
    this.addedNodes.push(added);
    this.nodes.set(name, node);
    const started = node.start().catch(async (e: unknown) => {
      await node.crash();
      this.nodes.delete(name);
      this.addedNodes.splice(this.addedNodes.indexOf(added), 1);
      throw e;
    });
    return { node, started };
  }

  /**
   * Runs the clock until `work` settles (a start by state sync waits for its peers' answers, which
   * take virtual time), for at most START_BOUND_MS; its result, or its error.
   */
  private async runWhile<T>(work: Promise<T>, what: string): Promise<T> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
    });
    watched.catch(() => undefined); // its error is rethrown below, once the clock has stopped
    await this.scheduler.run({ until: this.scheduler.now + START_BOUND_MS, done: () => settled });
    if (!settled) throw new Error(`${what} did not end within ${START_BOUND_MS / 1000} s of virtual time`);
    return watched;
  }

  node(name: string): SimNode {
    const n = this.nodes.get(name);
    if (n === undefined) throw new Error(`no node ${name} in the simulation (${this.names.join(', ')})`);
    return n;
  }

  /** A validator's consensus address (coinvalcons1…), by node name. */
  validatorAddress(name: string): string {
    this.node(name); // names the nodes there are
    return this.members.find((n) => n.name === name)!.key.validator_address;
  }

  /** A node's RPC URL, reached through `rpcTransport` only. */
  rpcUrl(name: string): string {
    this.node(name);
    return simRpcUrl(name);
  }

  /** The transport of a client (RpcClient) of the nodes' RPC, in this process (simRpc.ts). */
  get rpcTransport(): HttpTransport {
    this.transport ??= simRpcTransport((name) => this.nodes.get(name));
    return this.transport;
  }
  private transport: HttpTransport | undefined;

  /**
   * The waits' clock on this run's virtual time (simWaitClock.ts), for kit/wait's useWaitClock:
   * whoever drives the cluster so must not also run it by runTo or runUntil.
   */
  waitClock(): SimWaitClock {
    return new SimWaitClock(this.scheduler);
  }

  /** Virtual milliseconds since the network started. */
  get elapsedMs(): number {
    return this.scheduler.now - this.startedAt;
  }

  /** The highest height a node that is up has. */
  get head(): number {
    return Math.max(0, ...[...this.nodes.values()].filter((n) => n.up).map((n) => n.height));
  }

  /** Whether every named node (default all) is up and at `height` or above. */
  allAt(height: number, names: readonly string[] = this.names): boolean {
    return names.every((n) => this.node(n).up && this.node(n).height >= height);
  }

  heights(): Record<string, number> {
    return Object.fromEntries([...this.nodes.values()].map((n) => [n.name, n.height]));
  }

  /** Runs the clock to `elapsedMs` after the start (at once when past). */
  async runTo(elapsedMs: number): Promise<void> {
    await this.scheduler.run({ until: this.startedAt + elapsedMs });
  }

  /** Runs the clock until `done` holds, for at most `withinMs`; whether it held. */
  runUntil(done: () => boolean, withinMs: number): Promise<boolean> {
    return this.scheduler.run({ until: this.scheduler.now + withinMs, done });
  }

  async apply(action: SimAction): Promise<void> {
    await applyFault(action, this.nodes, this.network);
  }

  /** A load from the network's funded accounts, from now until `stop` (or the cluster's close). */
  load(o: SimLoadOptions): SimLoad {
    const load = new SimLoad(
      {
        scheduler: this.scheduler,
        random: this.random.fork(`load ${this.loads.length}`),
        nodes: [...this.nodes.values()],
        // The genesis validators: those a load delegates to.
        validators: this.generated.nodes.map((n) => n.key.validator_address),
      },
      this.senders,
      o,
    );
    this.loads.push(load);
    return load;
  }

  /** Every fault undone: cuts healed, paused nodes let go, crashed ones started again. */
  async healAll(): Promise<void> {
    this.network.heal();
    for (const n of this.nodes.values()) {
      this.network.connect(n.name);
      n.unpause();
      await n.start();
    }
    // A schedule shrunk of a fault's end leaves its links, disk or clock so: undone too (only
    // where something is in force, so a whole schedule's run does here what it did before).
    for (const n of this.nodes.values())
      if (this.network.rulesOf(n.name).length > 0)
        await this.apply({ kind: 'links', node: n.name, links: [] });
    for (const n of this.nodes.values())
      if (!noDiskFault(n.diskFaults))
        await this.apply({ kind: 'disk', node: n.name, faults: NO_DISK_FAULTS });
    for (const n of this.nodes.values()) if (n.skewMs !== 0) n.skew(0);
  }

  /** Every node's chain (each must be up) and what a node reported wrong outside its handlers. */
  async chains(): Promise<ClusterChains> {
    const hashes: Record<string, string[]> = {};
    let missedSlots = 0;
    for (const n of this.nodes.values()) {
      const headers = await n.headers();
      // A joiner by state sync holds nothing below its snapshot: '' at each height before it.
      const below = Array.from({ length: (headers[0]?.height ?? 1) - 1 }, () => '');
      hashes[n.name] = [...below, ...headers.map((h) => blockHash(h))];
      if (n.name === this.names[0]) missedSlots = headers.reduce((sum, h) => sum + h.round, 0);
    }
    return {
      heights: this.heights(),
      hashes,
      fingerprint: fingerprintOf(this.names, hashes),
      forks: forksOf(Object.values(hashes)),
      missedSlots,
    };
  }

  /**
   * What the honest nodes hold against the Byzantine ones, a line for each that is wrong: evidence
   * against an honest validator, or evidence not proven (always); with `againstEveryLiar`, an honest
   * node up that holds none against a validator that equivocated (the Byzantine scenario's check).
   */
  evidenceProblems(o: { readonly againstEveryLiar: boolean }): string[] {
    return evidenceProblems([...this.nodes.values()], (n) => this.validatorAddress(n), o);
  }

  /** Handlers that threw and starts that failed: a node's defect, each a line. */
  nodeFailures(): string[] {
    return [
      ...this.network.failures.map((f) => `${f.node}: a ${f.topic} handler threw: ${f.error}`),
      ...[...this.nodes.values()].flatMap((n) => n.failures),
    ];
  }

  async close(): Promise<void> {
    for (const l of this.loads) l.stop();
    for (const n of this.nodes.values()) await n.crash();
  }
}

function fingerprintOf(
  names: readonly string[],
  hashes: Readonly<Record<string, readonly string[]>>,
): string {
  const text = names.map((name) => `${name}:${(hashes[name] ?? []).join(',')}`).join('\n');
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

function forksOf(chains: readonly (readonly string[])[]): number[] {
  const forks: number[] = [];
  const longest = Math.max(0, ...chains.map((c) => c.length));
  for (let i = 0; i < longest; i++) {
    const seen = new Set(chains.map((c) => c[i]).filter((h) => h !== undefined && h !== ''));
    if (seen.size > 1) forks.push(i + 1);
  }
  return forks;
}
