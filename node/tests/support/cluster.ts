/**
 * A real N-validator network on 127.0.0.1 for tests: homes written by writeTestnet, one
 * chain-node process per validator, faults by signals and by blocked_peers.json (a partition).
 * Waits are bounded and on chain progress; every process is killed by `stopAll()`.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { type Program, startProgram } from '@chain-devnet/kit/process';
import { pause, waitFor } from '@chain-devnet/kit/wait';
import { BASE_PROTOCOL_VERSION, type BlockHeaderJson, type GenesisJson } from '../../src/chain/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { type TestnetNode, writeTestnet } from '../../src/commands/testnet.js';
import { START_GRACE_MS } from '../../src/consensus/types.js';
import { hexToBytes } from '../../src/crypto/hex.js';
import { P2PNetwork } from '../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../src/p2p/peerKey.js';
import { TOPIC_BLOCKS, TOPIC_TXS, TOPIC_VOTES } from '../../src/p2p/protocol.js';
import { networkPorts } from '../../src/testnet/ports.js';
import { CHAIN_NODE } from './processes.js';

export interface ClusterNode extends TestnetNode {
  program: Program | null;
  readonly client: RpcClient;
  /** Extra `chain-node start` flags of this node (e.g. --byzantine equivocate), at every start. */
  args: string[];
}

export class Cluster {
  readonly nodes: ClusterNode[];

  private constructor(
    readonly dir: string,
    nodes: TestnetNode[],
    readonly blockTimeMs: number,
    /** The chain-node program the nodes run (another build's, for side-by-side benchmarks). */
    private readonly nodeProgram: string,
  ) {
    this.nodes = nodes.map((n) => ({
      ...n,
      program: null,
      client: new RpcClient(`http://127.0.0.1:${n.rpcPort}`, 5000),
      args: [],
    }));
  }

  /**
   * `protocolVersion`: the genesis's; default the newest this build runs, or 1.0.0 when the nodes
   * run another build (`program`), which may run nothing newer (as the devnet decides).
   */
  static async create(
    validators: number,
    blockTimeMs: number,
    params: Record<string, unknown> = {},
    program: string = CHAIN_NODE,
    protocolVersion: string | undefined = program === CHAIN_NODE ? undefined : BASE_PROTOCOL_VERSION,
  ): Promise<Cluster> {
    const dir = await mkdtemp(join(tmpdir(), 'chain-cluster-'));
    const { nodes } = await writeTestnet({
      output: dir,
      validators,
      seed: 'cluster-tests',
      basePort: await freeBasePort((base) => networkPorts(base, validators)),
      host: '127.0.0.1',
      blockTimeMs,
      epochLength: null,
      accounts: 40,
      genesisTime: Math.floor(Date.now() / 1000),
      extraParams: params,
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
    });
    return new Cluster(dir, nodes, blockTimeMs, program);
  }

  /** Starts node i on the cluster's program, or on `program` (another build's chain-node). */
  start(i: number, program: string = this.nodeProgram): void {
    const n = this.nodes[i]!;
    if (n.program?.running) return;
    // CLUSTER_CPU_PROF=<dir>: each node writes a V8 CPU profile there when it exits cleanly.
    const prof = process.env.CLUSTER_CPU_PROF;
    const flags = prof
      ? ['--cpu-prof', '--cpu-prof-dir', prof, '--cpu-prof-name', `${n.name}-${Date.now()}.cpuprofile`]
      : [];
    // The node's output also goes to <dir>/<name>.log, for a person reading a failed run.
    n.program = startProgram({
      args: [...flags, program, 'start', '--home', n.home, '--fault-injection', ...n.args],
      name: n.name,
      logFile: this.logPath(i),
    });
  }

  /** Node i's output (every start appends to it). */
  logPath(i: number): string {
    return join(this.dir, `${this.nodes[i]!.name}.log`);
  }

  /** Whether node i's process still runs, and the end of its output: for a failed wait's message. */
  diagnose(i: number): string {
    return this.nodes[i]!.program?.describe() ?? `${this.nodes[i]!.name}: not started`;
  }

  startAll(): void {
    for (let i = 0; i < this.nodes.length; i++) this.start(i);
  }

  /** Sends `signal` to node i and waits until it has exited. */
  async stop(i: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const p = this.nodes[i]!.program;
    if (p === null || !p.running) return;
    p.signal(signal);
    await p.exited;
  }

  /** Cuts node i off from the nodes in `others` (both directions), or reconnects with []. */
  async block(i: number, others: readonly number[]): Promise<void> {
    const ids = others.map((j) => this.nodes[j]!.peerId);
    await writeFile(join(this.nodes[i]!.home, 'blocked_peers.json'), JSON.stringify(ids));
  }

  /** The private keys of the funded accounts of the genesis (accounts.json), in order. */
  async accountKeys(): Promise<Uint8Array[]> {
    const accounts = JSON.parse(await readFile(join(this.nodes[0]!.home, 'accounts.json'), 'utf8')) as {
      private_key: string;
    }[];
    return accounts.map((a) => hexToBytes(a.private_key));
  }

  /**
   * A chain-node that joins by state sync (node.json `state_sync: true`) from a home of its own,
   * `<dir>/<name>`, with `genesis` (default: the cluster's), its RPC on `port`, p2p on `p2pPort`,
   * dialling `bootstrap`; its output also in `<dir>/<name>.log`.
   */
  async startJoiner(o: {
    readonly port: number;
    readonly p2pPort: number;
    readonly bootstrap: readonly string[];
    readonly genesis?: GenesisJson;
    readonly name?: string;
  }): Promise<Program> {
    const name = o.name ?? 'joiner';
    const home = join(this.dir, name);
    await mkdir(home, { recursive: true });
    const genesis =
      o.genesis ?? JSON.parse(await readFile(join(this.nodes[0]!.home, 'genesis.json'), 'utf8'));
    await writeFile(join(home, 'genesis.json'), JSON.stringify(genesis));
    await writeFile(
      join(home, 'node.json'),
      JSON.stringify({ port: o.port, p2p_port: o.p2pPort, bootstrap: o.bootstrap, state_sync: true }),
    );
    return startProgram({
      args: [this.nodeProgram, 'start', '--home', home],
      name,
      logFile: join(this.dir, `${name}.log`),
    });
  }

  /**
   * A libp2p peer that is no validator (a listener, or a rogue that publishes what it likes),
   * bootstrapped from node i and subscribed to every topic, `onTxs` hearing the transaction
   * topic. Returned once it is connected and the subscriptions have been exchanged.
   */
  async outsidePeer(
    seed: string,
    i: number,
    onTxs: (data: Uint8Array) => void = () => {},
  ): Promise<P2PNetwork> {
    const peer = await P2PNetwork.start({
      privateKey: await peerKeyFromSeed(new TextEncoder().encode(seed)),
      listenHost: '127.0.0.1',
      listenPort: 0,
      bootstrap: [this.nodes[i]!.multiaddr],
      logger: createLogger({ level: 'error' }),
    });
    try {
      for (const topic of [TOPIC_BLOCKS, TOPIC_VOTES]) peer.subscribe(topic, () => 'ignore');
      peer.subscribe(TOPIC_TXS, (data) => {
        onTxs(data);
        return 'ignore';
      });
      await waitFor(`${seed} to connect`, 10_000, async () =>
        peer.connectedPeers().length > 0 ? true : null,
      );
      await pause(1500); // subscriptions exchanged
      return peer;
    } catch (e) {
      await peer.stop();
      throw e;
    }
  }

  async height(i: number): Promise<number> {
    return (await this.nodes[i]!.client.status()).height;
  }

  /**
   * Waits until every listed node is at least at `target`; the bound grows with the node count and
   * includes the start grace: right after a start, a round 0 may wait that long
   * for a proposer that came up late (on a loaded machine, seconds after the others).
   */
  async waitForHeight(
    target: number,
    which: readonly number[] = this.nodes.map((_n, i) => i),
    timeoutMs?: number,
  ): Promise<void> {
    const bound = timeoutMs ?? START_GRACE_MS + 15_000 + which.length * 2_000 + target * this.blockTimeMs * 3;
    for (const i of which) {
      try {
        await waitFor(`${this.nodes[i]!.name} at height ${target}`, bound, async () =>
          (await this.height(i)) >= target ? true : null,
        );
      } catch (e) {
        throw new Error(`${(e as Error).message}\n${this.diagnose(i)}`);
      }
    }
  }

  async header(i: number, height: number): Promise<BlockHeaderJson> {
    return (await this.nodes[i]!.client.block(height)).header;
  }

  /** Every listed node has the same header at every height from 1 to `upTo`; names the first difference. */
  async assertAgreement(
    upTo: number,
    which: readonly number[] = this.nodes.map((_n, i) => i),
  ): Promise<void> {
    for (let h = 1; h <= upTo; h++) {
      const reference = await this.header(which[0]!, h);
      for (const i of which.slice(1))
        assert.deepEqual(
          await this.header(i, h),
          reference,
          `${this.nodes[i]!.name} differs from ${this.nodes[which[0]!]!.name} at height ${h}`,
        );
    }
  }

  /** The indexes of the nodes in the order of the active set at genesis (by validator address). */
  activeOrder(): number[] {
    return this.nodes
      .map((n, i) => ({ i, address: n.validatorAddress }))
      .sort((a, b) => (a.address < b.address ? -1 : 1))
      .map((x) => x.i);
  }

  async stopAll(): Promise<void> {
    // SIGTERM first so that profiles and logs are written; SIGKILL whatever is left after 3 s.
    await Promise.all(this.nodes.map((n) => n.program?.stop('SIGTERM', 3_000)));
    await rm(this.dir, { recursive: true, force: true });
  }
}
