/**
 * The devnet under test, seen from outside: brought up by `devnet up` with a manifest of short
 * epochs and fast blocks (or an existing one named by E2E_DEVNET_HOME), driven only through the
 * `devnet` command, and always torn down by the suite that brought it up, with every node's log
 * kept when a scenario failed.
 *
 * What the suite knows about the chain comes from what a devnet user gets: `devnet up --json`
 * (nodes, RPC URLs, addresses, funded accounts with their keys) and the genesis parameters it
 * asked for. For a devnet it did not bring up, the same facts come from the devnet's published
 * files: accounts.json (the funded accounts `devnet up` prints) and a node's genesis.json.
 */
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type AddJson,
  devnetCli,
  devnetCliSync,
  devnetJson,
  freeDevnetBase,
  type StatusJson,
  type TxJson,
  type UpJson,
} from '@chain-devnet/devnet';
import { RpcClient } from '@chain-devnet/node/client';
import { hexToBytes } from '@chain-devnet/node/crypto';

export type RuntimeKind = 'process' | 'docker';

export const COIN = 10n ** 18n;

/** The chain parameters the suite's expectations are computed from (docs/RULES.md names). */
export interface ChainParams {
  readonly chainId: string;
  readonly blockTimeMs: number;
  readonly epochLength: number;
  readonly minStake: bigint;
  /** Parts per million. */
  readonly minUptimePpm: number;
  readonly unjailFee: bigint;
  readonly activationDelay: number;
  readonly unbondingBlocks: number;
  readonly initialBlockReward: bigint;
  readonly halvingInterval: number;
  readonly minGasPrice: bigint;
  readonly snapshotInterval: number;
  readonly snapshotsKept: number;
  /** Slash of the 1st, 2nd, 3rd jailing, parts per million. */
  readonly slashPpm: readonly [number, number, number];
  readonly maxValidators: number;
  /** Extra stake burned by UNSTAKE while jailed, parts per million. */
  readonly jailedUnstakePenaltyPpm: number;
  readonly defaultCommissionPpm: number;
}

/** A validator of the genesis file. */
export interface GenesisValidator {
  readonly pubKey: string;
  readonly stake: bigint;
  readonly name: string;
  readonly commissionPpm: number | null;
}

/** The devnet network's defaults (docs/RULES.md, "Parameters"); a genesis may override any. */
const DEVNET_DEFAULTS: Omit<ChainParams, 'chainId'> = {
  blockTimeMs: 10_000,
  epochLength: 100,
  minStake: 100n * COIN,
  minUptimePpm: 750_000,
  unjailFee: 1000n * COIN,
  activationDelay: 100,
  unbondingBlocks: 100,
  initialBlockReward: 10n * COIN,
  halvingInterval: 1_000_000,
  minGasPrice: 1000n,
  snapshotInterval: 1000,
  snapshotsKept: 10,
  slashPpm: [50_000, 100_000, 1_000_000],
  maxValidators: 100,
  jailedUnstakePenaltyPpm: 100_000,
  defaultCommissionPpm: 100_000,
};

/** Genesis parameters of the devnets the suite brings up: 400 ms blocks, 12-block epochs. */
export const E2E_PARAMS = {
  min_uptime: 0.5,
  activation_delay: 8,
  unbonding_blocks: 8,
  snapshot_interval: 5,
} as const;
export const E2E_BLOCK_TIME = '400ms';
export const E2E_EPOCH_LENGTH = 12;
export const E2E_VALIDATORS = 4;

const rateToPpm = (r: number) => Math.round(r * 1_000_000);

function paramsFrom(chainId: string, genesisParams: Record<string, unknown>): ChainParams {
  const g = genesisParams;
  const int = (k: string, d: number) => (typeof g[k] === 'number' ? (g[k] as number) : d);
  const wei = (k: string, d: bigint) => (typeof g[k] === 'string' ? BigInt(g[k] as string) : d);
  const rate = (k: string, d: number) => (typeof g[k] === 'number' ? rateToPpm(g[k] as number) : d);
  const d = DEVNET_DEFAULTS;
  const slash = Array.isArray(g.slash_fractions)
    ? ((g.slash_fractions as number[]).map(rateToPpm) as unknown as [number, number, number])
    : d.slashPpm;
  return {
    chainId,
    blockTimeMs: int('block_time_ms', d.blockTimeMs),
    epochLength: int('epoch_length', d.epochLength),
    minStake: wei('min_stake', d.minStake),
    minUptimePpm: rate('min_uptime', d.minUptimePpm),
    unjailFee: wei('unjail_fee', d.unjailFee),
    activationDelay: int('activation_delay', d.activationDelay),
    unbondingBlocks: int('unbonding_blocks', d.unbondingBlocks),
    initialBlockReward: wei('initial_block_reward', d.initialBlockReward),
    halvingInterval: int('halving_interval', d.halvingInterval),
    minGasPrice: wei('min_gas_price', d.minGasPrice),
    snapshotInterval: int('snapshot_interval', d.snapshotInterval),
    snapshotsKept: int('snapshots_kept', d.snapshotsKept),
    slashPpm: slash,
    maxValidators: int('max_validators', d.maxValidators),
    jailedUnstakePenaltyPpm: rate('jailed_unstake_penalty', d.jailedUnstakePenaltyPpm),
    defaultCommissionPpm: rate('default_commission_rate', d.defaultCommissionPpm),
  };
}

export interface DevnetNode {
  readonly name: string;
  readonly url: string;
  readonly rpc: RpcClient;
}

export interface DevAccount {
  readonly name: string;
  readonly address: string;
  readonly privateKey: Uint8Array;
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

export class Devnet {
  readonly nodes: DevnetNode[] = [];
  accounts: DevAccount[] = [];
  /** The task market's URL (the suite's devnet runs it: manifest `market: true`), or null. */
  market: string | null = null;
  params!: ChainParams;
  genesisValidators: GenesisValidator[] = [];
  /** Set when a scenario failed: the logs of every node are kept at teardown. */
  failed = false;
  private tmp: string | null = null;
  private signalHandler: ((signal: NodeJS.Signals) => void) | null = null;

  private constructor(
    readonly runtime: RuntimeKind,
    readonly home: string,
    /** True when this suite brought the devnet up (and so tears it down). */
    readonly owned: boolean,
  ) {}

  /**
   * A devnet this suite will bring up on `runtime` (with `up`) and tear down: the object exists
   * before `devnet up` runs, so that a failed or interrupted bring-up is torn down too.
   */
  static async create(runtime: RuntimeKind): Promise<Devnet> {
    const tmp = await mkdtemp(join(tmpdir(), `e2e-${runtime}-`));
    const d = new Devnet(runtime, join(tmp, 'home'), true);
    d.tmp = tmp;
    d.installSignalHandler();
    return d;
  }

  /**
   * `devnet up` with the suite's manifest: 4 validators, fast blocks, short epochs; `changes`
   * replaces fields of it (a scenario's own devnet).
   */
  async up(changes: Record<string, unknown> = {}): Promise<void> {
    const manifest = {
      validators: E2E_VALIDATORS,
      runtime: this.runtime,
      seed: `e2e-${this.runtime}`,
      block_time: E2E_BLOCK_TIME,
      epoch_length: E2E_EPOCH_LENGTH,
      // Room for the nodes a scenario adds (staking) beside the four validators.
      base_port: await freeDevnetBase(8),
      monitoring: false,
      // The task market and its sample worker (scenario 12).
      market: true,
      params: E2E_PARAMS,
      ...changes,
    };
    const manifestFile = join(this.tmp!, 'manifest.json');
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    const up = await devnetJson<UpJson>(['up', '--manifest', manifestFile, '--home', this.home], {
      timeoutMs: 600_000,
    });
    if (up.runtime !== this.runtime) throw new Error(`devnet up ran on ${up.runtime}, not ${this.runtime}`);
    for (const n of up.nodes) this.addNode(n.name, n.rpc);
    this.market = up.market;
    this.accounts = up.accounts.map((a) => ({
      name: a.name,
      address: a.address,
      privateKey: hexToBytes(a.private_key, 32),
    }));
    await this.loadParams(up.chain_id);
  }

  /** A devnet that is already running (E2E_DEVNET_HOME): used as it is, never torn down. */
  static async attach(home: string): Promise<Devnet> {
    const st = await devnetJson<StatusJson>(['status', '--home', resolve(home)]);
    const d = new Devnet(st.runtime, resolve(home), false);
    for (const n of st.nodes) d.addNode(n.name, n.rpc);
    d.market = st.market?.url ?? null;
    const accounts = JSON.parse(await readFile(join(d.home, 'accounts.json'), 'utf8')) as {
      name: string;
      address: string;
      private_key: string;
    }[];
    d.accounts = accounts.map((a) => ({
      name: a.name,
      address: a.address,
      privateKey: hexToBytes(a.private_key, 32),
    }));
    await d.loadParams(st.chain_id);
    return d;
  }

  /** The runtime of the devnet at `home`, without keeping anything. */
  static async runtimeOf(home: string): Promise<RuntimeKind> {
    return (await devnetJson<StatusJson>(['status', '--home', resolve(home)])).runtime;
  }

  private async loadParams(chainId: string): Promise<void> {
    const genesis = JSON.parse(
      await readFile(join(this.home, 'nodes', this.nodes[0]!.name, 'genesis.json'), 'utf8'),
    ) as {
      params?: Record<string, unknown>;
      validators: { pub_key: string; stake: string; name?: string; commission_rate?: number }[];
    };
    this.params = paramsFrom(chainId, genesis.params ?? {});
    this.genesisValidators = genesis.validators.map((v) => ({
      pubKey: v.pub_key,
      stake: BigInt(v.stake),
      name: v.name ?? '',
      commissionPpm: v.commission_rate === undefined ? null : rateToPpm(v.commission_rate),
    }));
  }

  private addNode(name: string, url: string): DevnetNode {
    const n = { name, url, rpc: new RpcClient(url, 5_000) };
    this.nodes.push(n);
    return n;
  }

  node(name: string): DevnetNode {
    const n = this.nodes.find((x) => x.name === name);
    if (n === undefined) throw new Error(`no node ${name} in the devnet (${this.names().join(', ')})`);
    return n;
  }

  names(): string[] {
    return this.nodes.map((n) => n.name);
  }

  /**
   * A time bound for "within `blocks` blocks": block time x 3 per block, plus a start-up margin
   * that grows with the number of nodes; E2E_SLOWDOWN scales it for slow machines.
   */
  within(blocks: number): number {
    const slow = Number(process.env.E2E_SLOWDOWN ?? '1') * (this.runtime === 'docker' ? 1.5 : 1);
    return Math.round(slow * (5_000 + 1_000 * this.nodes.length + blocks * this.params.blockTimeMs * 3));
  }

  cli(...args: string[]) {
    return devnetCli([...args, '--home', this.home]);
  }

  json<T>(...args: string[]): Promise<T> {
    return devnetJson<T>([...args, '--home', this.home]);
  }

  status(): Promise<StatusJson> {
    return this.json<StatusJson>('status');
  }

  /** A fault command (stop, start, kill, pause, resume, restart, disconnect, connect) on one node. */
  async fault(op: string, name: string): Promise<void> {
    const r = await this.cli(op, name);
    if (r.code !== 0) throw new Error(`devnet ${op} ${name} exited ${r.code}: ${r.stderr.trim()}`);
  }

  /** `devnet tx KIND ARGS… --json`: a transaction signed with a devnet key, with its receipt. */
  tx(kind: string, ...args: string[]): Promise<TxJson> {
    return devnetCli(['tx', kind, ...args, '--home', this.home, '--json']).then((r) => {
      try {
        return JSON.parse(r.stdout) as TxJson;
      } catch {
        throw new Error(`devnet tx ${kind} ${args.join(' ')} exited ${r.code}: ${r.stdout} ${r.stderr}`);
      }
    });
  }

  /** `devnet add …`: a new node joins; it is added to `nodes`. */
  async add(...args: string[]): Promise<AddJson> {
    const r = await this.json<AddJson>('add', ...args);
    this.addNode(r.name, r.rpc);
    return r;
  }

  /** Every node's log (`devnet logs NODE --tail`) and the devnet status, into a new folder. */
  async keepLogs(): Promise<string> {
    const base = resolve(process.env.E2E_LOGS_DIR ?? 'e2e-logs');
    const dir = join(base, `${this.runtime}-${stamp()}`);
    await mkdir(dir, { recursive: true });
    const st = await this.cli('status', '--json');
    await writeFile(join(dir, 'status.json.log'), st.stdout || st.stderr);
    const names = new Set(this.names());
    try {
      for (const n of (JSON.parse(st.stdout) as StatusJson).nodes) names.add(n.name);
    } catch {
      // status failed: the names known to the suite
    }
    for (const name of names) {
      const r = await devnetCli(['logs', name, '--tail', '1000000', '--home', this.home], {
        timeoutMs: 120_000,
      });
      await writeFile(join(dir, `${name}.log`), r.code === 0 ? r.stdout : `${r.stdout}\n${r.stderr}`);
    }
    return dir;
  }

  /** Keeps the logs if a scenario failed, then (if the suite brought it up) `devnet down`. */
  async tearDown(): Promise<void> {
    try {
      if (this.failed) {
        const dir = await this.keepLogs();
        console.log(`e2e: a scenario failed on the ${this.runtime} runtime; node logs kept in ${dir}`);
      }
    } finally {
      if (this.owned) {
        const r = await this.cli('down');
        if (r.code !== 0) console.log(`e2e: devnet down failed: ${r.stderr}`);
        if (this.tmp !== null) await rm(this.tmp, { recursive: true, force: true });
      }
      this.removeSignalHandler();
    }
  }

  /**
   * Interrupted (Ctrl-C, the runner's timeout): the devnet still goes down. The last devnet's
   * handler to run exits (a scenario may have a devnet of its own besides the suite's).
   */
  private installSignalHandler(): void {
    const handler = (signal: NodeJS.Signals) => {
      devnetCliSync(['down', '--home', this.home]);
      if (this.tmp !== null) rmSync(this.tmp, { recursive: true, force: true });
      if (process.listenerCount(signal) === 0) process.exit(130);
    };
    this.signalHandler = handler;
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
  }

  private removeSignalHandler(): void {
    if (this.signalHandler === null) return;
    process.off('SIGINT', this.signalHandler);
    process.off('SIGTERM', this.signalHandler);
    this.signalHandler = null;
  }
}
