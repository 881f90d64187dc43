/**
 * A devnet under test: started from a manifest on any runtime (through the same operations as
 * `devnet up`, in this process) or attached to a running one; node handles, partitions, waits,
 * assertions, a load generator, the invariants; and always torn down when it was started here:
 * by stop() (after the invariants), on SIGINT and SIGTERM, and at the next start when a killed
 * run left it behind. A failed run keeps every node's log in a folder it names.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChainParams, TxType } from '@chain-devnet/node/chain';
import { hexToBytes } from '@chain-devnet/node/crypto';
import { Devnet, type NodeStatus } from '../devnet.js';
import { freeDevnetBase } from '../harness/ports.js';
import { marketUrl } from '../market.js';
import { type AddResult, addNode } from '../operations/add.js';
import { takeDown } from '../operations/down.js';
import { startAll, stopAll } from '../operations/lifecycle.js';
import { NODE_OPS, type NodeOp } from '../operations/nodeOp.js';
import { sendTx, type TxOptions, type TxOutcome } from '../operations/tx.js';
import { loadManifest, up } from '../operations/up.js';
import type { RuntimeKind } from '../runtime/runtime.js';
import { resolveRuntime } from '../runtime/select.js';
import { type Manifest, type RuntimeChoice, requireManifest } from '../spec/manifest.js';
import { DEFAULTS } from '../spec/networkSpec.js';
import type { Within } from './bounds.js';
import type { Chain } from './chain.js';
import { type DevAccount, NetContext } from './context.js';
import { StepError, TestkitError, TestkitUsageError } from './errors.js';
import { Expectations } from './expect/index.js';
import { checkInvariants, type InvariantOptions, type InvariantReport } from './invariants/index.js';
import type { Ledger } from './ledger.js';
import { Load, type LoadOptions } from './load.js';
import type { LogMarks } from './logs.js';
import { NodeHandle } from './nodeHandle.js';
import { defaultLogsDir, keepLogs, logLines, stamp } from './nodeLogs.js';
import { reapLeftovers } from './reaper.js';
import { processStart, RunRegistry } from './registry.js';
import { onInterrupt } from './signals.js';
import type { ValidatorModel } from './validatorModel.js';
import type { Txs } from './wallet.js';

export interface StartOptions {
  /** The devnet's manifest (devnet/README.md, "Manifest"), as an object… */
  readonly manifest?: Manifest;
  /** …or a file (JSON or YAML). */
  readonly manifestFile?: string;
  /** Overrides the manifest's; default the manifest's, else auto (Docker when an engine answers). */
  readonly runtime?: RuntimeChoice;
  /** The devnet's folder; default a new one under the OS temp folder (removed at stop). */
  readonly home?: string;
  /** Where a failed run keeps its logs: TESTKIT_LOGS_DIR, else ./testkit-logs. */
  readonly keepLogsDir?: string;
  /** A name for its folders and lines; default "testnet". */
  readonly name?: string;
  /** Progress lines; default: printed as `# [name] …` (a test runner's diagnostic). */
  readonly log?: (line: string) => void;
  /** Ports kept free for nodes added later (Testnet.add), when the manifest has no base_port; default 4. */
  readonly spareNodes?: number;
  /** For the invariants at stop: e.g. the validators a Byzantine run expects to equivocate. */
  readonly invariants?: InvariantOptions;
}

export interface StopOptions {
  /** The run failed (the caller's test threw): logs kept, invariants not checked. */
  readonly failed?: boolean;
  /** Why, for the kept logs' why.txt; default "the run failed". */
  readonly why?: string;
  /** Check the invariants first (default true, unless failed). */
  readonly invariants?: boolean;
  /**
   * Leave the devnet running in its home (`devnet test --keep`): not torn down, and no longer
   * recorded for the reaper; `devnet down --home HOME` removes it.
   */
  readonly keep?: boolean;
}

/** A devnet-key transaction: `devnet tx` as options (from: an account name, a node name or a hex key). */
export type DevnetTx = Omit<TxOptions, 'type' | 'wait'> & { readonly wait?: boolean };

const manifestValidators = (m: Manifest) =>
  typeof m.validators === 'number' ? m.validators : (m.validators?.length ?? DEFAULTS.validators);

interface Run {
  readonly owned: boolean;
  readonly name: string;
  readonly logsDir: string;
  readonly tmp: string | null;
  readonly runId: string | null;
  readonly log: (line: string) => void;
  readonly invariants: InvariantOptions;
}

export class Testnet {
  readonly net: NetContext;
  readonly expect: Expectations;
  /** Set by a failure the testkit saw, or by the caller (markFailed): the logs are kept at stop. */
  failed = false;
  private stopping: Promise<void> | null = null;
  private unregister: () => void = () => undefined;
  private loads = new Set<Load>();
  /** A partition made by this object is in force. */
  private partitioned = false;
  /** Each node's RPC as its runtime publishes it (on a swarm: the machine that runs it). */
  private readonly rpcUrls = new Map<string, string>();

  private constructor(
    readonly devnet: Devnet,
    private readonly run: Run,
  ) {
    this.net = new NetContext({
      nodes: () =>
        devnet.nodes.map((n) => ({
          name: n.name,
          rpc: this.rpcUrls.get(n.name) ?? `http://127.0.0.1:${n.rpcPort}`,
          address: n.key.address,
          validatorAddress: n.key.validator_address,
        })),
      genesis: devnet.spec.genesis,
      accounts: devnet.spec.accounts.map(
        (a): DevAccount => ({
          name: a.name,
          address: a.key.address,
          privateKey: hexToBytes(a.key.private_key, 32),
        }),
      ),
      runtime: devnet.state.runtime,
      logLines: (name) => logLines(devnet.runtime, name),
    });
    this.expect = new Expectations(this.net);
  }

  /**
   * Brings a devnet up from a manifest (monitoring off unless it says otherwise; a free base port
   * unless it names one) and waits for a final block on every node. What a killed run left behind
   * is torn down first.
   */
  static async start(o: StartOptions = {}): Promise<Testnet> {
    const name = o.name ?? 'testnet';
    const log = o.log ?? ((line: string) => console.log(`# [${name}] ${line}`));
    if (o.manifest !== undefined && o.manifestFile !== undefined)
      throw new TestkitUsageError('start takes a manifest or a manifestFile, not both');
    const registry = new RunRegistry();
    await reapLeftovers(registry, log);
    const base =
      o.manifestFile !== undefined
        ? await loadManifest(o.manifestFile)
        : requireManifest(o.manifest ?? {}, 'the manifest');
    const { kind, why } = await resolveRuntime(o.runtime ?? base.runtime ?? 'auto');
    const monitoring = base.monitoring ?? false;
    const manifest: Manifest = {
      ...base,
      runtime: kind,
      monitoring,
      base_port:
        base.base_port ?? (await freeDevnetBase(manifestValidators(base) + (o.spareNodes ?? 4), monitoring)),
    };
    const tmp = o.home === undefined ? await mkdtemp(join(tmpdir(), `testkit-${kind}-`)) : null;
    const home = resolve(o.home ?? join(tmp!, 'home'));
    const runId = `${name}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const logsDir = resolve(o.keepLogsDir ?? defaultLogsDir());
    // Recorded before anything starts: a run killed during its bring-up is found too.
    await registry.add(runId, {
      home,
      runtime: kind,
      pid: process.pid,
      pidStart: await processStart(process.pid),
      startedAt: new Date().toISOString(),
      logsDir,
      tmp,
      name,
    });
    const run: Run = { owned: true, name, logsDir, tmp, runId, log, invariants: o.invariants ?? {} };
    let net: Testnet | null = null;
    // Until the devnet object exists, an interrupt removes what the runtime made in `home`.
    const unregisterEarly = onInterrupt((sig) =>
      reapLeftovers(registry, log, runId, `interrupted by ${sig}`),
    );
    try {
      const started = Date.now();
      log(`devnet up on ${kind} (${why}) in ${home}`);
      const r = await up({
        home,
        manifestPath: null,
        manifest,
        flags: {},
        genesisTime: Math.floor(Date.now() / 1000),
        progress: () => undefined,
      });
      net = new Testnet(r.devnet, run);
      await net.learnEndpoints();
      net.unregister = onInterrupt((sig) =>
        net!.stop({ failed: true, invariants: false, why: `interrupted by ${sig}` }).catch(() => undefined),
      );
      log(
        `${r.devnet.nodes.length} nodes up in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
          `${net.params.blockTimeMs} ms blocks, epochs of ${net.params.epochLength}`,
      );
      return net;
    } catch (e) {
      // up() removed what it started and kept the folder: its logs go to the run's log folder.
      await reapLeftovers(registry, log, runId, 'bring-up failed');
      throw e;
    } finally {
      unregisterEarly();
    }
  }

  /** A devnet already running (its --home): used as it is, never torn down by this testkit. */
  static async attach(
    home: string,
    o: Pick<StartOptions, 'name' | 'log' | 'keepLogsDir' | 'invariants'> = {},
  ) {
    const name = o.name ?? 'testnet';
    const devnet = await Devnet.open(resolve(home));
    const net = new Testnet(devnet, {
      owned: false,
      name,
      logsDir: resolve(o.keepLogsDir ?? defaultLogsDir()),
      tmp: null,
      runId: null,
      log: o.log ?? ((line: string) => console.log(`# [${name}] ${line}`)),
      invariants: o.invariants ?? {},
    });
    await net.learnEndpoints();
    return net;
  }

  /** Asks the runtime where each node's RPC is (the devnet's nodes are known; a node added asks again). */
  private async learnEndpoints(): Promise<void> {
    for (const n of this.devnet.nodes) this.rpcUrls.set(n.name, (await this.devnet.endpoint(n.name)).rpc);
  }

  get home(): string {
    return this.devnet.layout.home;
  }

  get runtime(): RuntimeKind {
    return this.devnet.state.runtime;
  }

  /** True when this testkit started the devnet (and so tears it down). */
  get owned(): boolean {
    return this.run.owned;
  }

  get params(): ChainParams {
    return this.net.params;
  }

  get chain(): Chain {
    return this.net.chain;
  }

  get model(): ValidatorModel {
    return this.net.model;
  }

  get txs(): Txs {
    return this.net.txs;
  }

  get ledger(): Ledger {
    return this.net.ledger;
  }

  get accounts(): readonly DevAccount[] {
    return this.net.accounts;
  }

  /** The task market's URL (manifest `market: true`, docs/MARKET.md), or null without it. */
  get market(): string | null {
    return marketUrl(this.devnet);
  }

  log(line: string): void {
    this.run.log(line);
  }

  names(): string[] {
    return this.net.names();
  }

  node(name: string): NodeHandle {
    this.net.rpc(name); // an unknown name fails here
    return new NodeHandle(name, this.devnet, this.net);
  }

  nodes(): NodeHandle[] {
    return this.names().map((n) => this.node(n));
  }

  /** A node operation as data (a scenario runner's fault step): {op: 'kill', node: 'validator-2'}. */
  fault(f: { readonly op: NodeOp; readonly node: string }): Promise<void> {
    if (!(NODE_OPS as readonly string[]).includes(f.op))
      throw new TestkitUsageError(`a node operation is one of ${NODE_OPS.join(', ')}, got ${f.op}`);
    return this.node(f.node).op(f.op);
  }

  /**
   * The whole devnet stopped, every node gracefully and its services with them (`devnet stop`);
   * returns the height it stopped at. startAll() resumes it; until then no node answers.
   */
  async stopAll(): Promise<number> {
    const height = await stopAll(this.devnet, (line) => this.log(line));
    this.log(`devnet stopped at height ${height}`);
    return height;
  }

  /** The stopped devnet started again where it stopped, every node at once (`devnet start`). */
  async startAll(): Promise<void> {
    await startAll(this.devnet, (line) => this.log(line));
    await this.learnEndpoints();
    this.log('devnet started again');
  }

  /** Sets the name the following failures carry. */
  step(label: string): void;
  /** Runs `f` as the step `label`: a failure inside names it (a TestkitError, or a StepError around another error). */
  step<T>(label: string, f: () => Promise<T>): Promise<T>;
  step<T>(label: string, f?: () => Promise<T>): undefined | Promise<T> {
    this.net.step = label;
    if (f === undefined) return;
    return f().catch((e: unknown) => {
      this.failed = true;
      throw e instanceof TestkitError || e instanceof StepError ? e : new StepError(label, e);
    });
  }

  /** The bound of a wait, in ms. */
  bound(w: Within): number {
    return this.net.bound(w);
  }

  /** The bound of "within `blocks` blocks", in ms. */
  within(blocks: number): number {
    return this.net.within(blocks);
  }

  /** The highest height once every node is synced (at most one block apart), within 10 blocks. */
  synced(nodes?: readonly string[]): Promise<number> {
    return this.expect.synced(nodes === undefined ? {} : { nodes });
  }

  /** Waits until every named node has `k` more blocks than the highest has now; that height. */
  waitBlocks(k: number, nodes?: readonly string[]): Promise<number> {
    return this.chain.waitBlocks(k, nodes);
  }

  /**
   * A partition into groups of node names: each node then talks only to its group's nodes. The
   * nodes named in no group form one more group. A real partition on every runtime (the nodes'
   * blocked-peers fault injection).
   */
  async partition(groups: readonly (readonly string[])[]): Promise<void> {
    const all = this.names();
    const seen = new Set<string>();
    for (const g of groups)
      for (const n of g) {
        if (!all.includes(n))
          throw new TestkitUsageError(`partition: no node ${n} (nodes: ${all.join(', ')})`);
        if (seen.has(n)) throw new TestkitUsageError(`partition: ${n} is in two groups`);
        seen.add(n);
      }
    const rest = all.filter((n) => !seen.has(n));
    const full = rest.length > 0 ? [...groups, rest] : groups;
    try {
      await this.devnet.faults.partition(full, await this.devnet.peers());
    } catch (e) {
      throw await this.net.failureNow(all[0]!, 'the partition to be made', (e as Error).message, e);
    }
    this.partitioned = true;
    this.log(`partition: ${full.map((g) => `[${g.join(', ')}]`).join(' ')}`);
  }

  /** Whether a partition made here is in force. */
  get isPartitioned(): boolean {
    return this.partitioned;
  }

  /** Ends a partition: every node talks to every other again (a node disconnected stays so). */
  async heal(): Promise<void> {
    await this.devnet.faults.partition(null, await this.devnet.peers());
    if (this.partitioned) this.log('partition healed');
    this.partitioned = false;
  }

  /**
   * `devnet add`: a node joins and syncs; with stake, it is funded from account-0 and sends STAKE.
   * Its handle is net.node(result.name).
   */
  async add(o: { readonly name?: string; readonly stake?: string } = {}): Promise<AddResult> {
    const r = await addNode(this.devnet, {
      ...(o.name === undefined ? {} : { name: o.name }),
      ...(o.stake === undefined ? {} : { stake: o.stake }),
      progress: (line) => this.log(line),
    });
    await this.learnEndpoints();
    for (const t of [r.funding, r.stake])
      if (t?.receipt?.status === 'confirmed')
        this.ledger.record(t.tx_hash, t.receipt.block_height!, `devnet add ${r.name}`);
    return r;
  }

  /**
   * A transaction signed with a devnet key (`devnet tx`): from an account name, a node name (its
   * validator key) or a hex key; waits for its receipt unless wait is false.
   */
  async tx(type: TxType, o: DevnetTx): Promise<TxOutcome> {
    const r = await sendTx(this.devnet, { ...o, type, wait: o.wait ?? true });
    if (r.receipt?.status === 'confirmed')
      this.ledger.record(r.tx_hash, r.receipt.block_height!, `${type} from ${o.from}`);
    return r;
  }

  /** Starts a load in the background (funded accounts first); stop() or done() gives its report. */
  async load(o: LoadOptions): Promise<Load> {
    const l = await Load.start(this.net, o);
    this.loads.add(l);
    return l;
  }

  /** Every node as the runtime and its RPC see it. */
  status(): Promise<NodeStatus[]> {
    return this.devnet.status();
  }

  /** How far every node's log went now (for log expectations "since"). */
  async logMarks(): Promise<LogMarks> {
    const out: Record<string, number> = {};
    for (const n of this.names()) out[n] = (await this.net.logLines(n).catch(() => [])).length;
    return out;
  }

  /** The next epoch boundary at or after `h`. */
  boundaryFrom(h: number): number {
    const L = this.params.epochLength;
    return Math.ceil(h / L) * L;
  }

  /** Node names whose validator (by name) has one of `statuses` in the model now. */
  validatorNodes(statuses: readonly string[] = ['ACTIVE']): string[] {
    const vs = [...this.model.at(this.model.height).values()];
    return this.names().filter((n) => vs.some((v) => v.name === n && statuses.includes(v.status)));
  }

  /** Marks the run failed: its logs are kept at stop. */
  markFailed(): void {
    this.failed = true;
  }

  /** The invariants over the whole history of every node (also run by stop). */
  async checkInvariants(o: InvariantOptions = this.run.invariants): Promise<InvariantReport> {
    const r = await checkInvariants(this.net, o).catch((e: unknown) => {
      this.failed = true;
      throw e;
    });
    for (const line of r.lines) this.log(line);
    if (r.silent.length > 0) this.log(`not checked (not answering): ${r.silent.join(', ')}`);
    return r;
  }

  /** Every node's log and the status into a new folder under the run's log folder; its path. */
  async keepLogs(why = 'failed'): Promise<string> {
    const dir = join(this.run.logsDir, `${this.run.name}-${this.runtime}-${stamp()}`);
    await keepLogs(this.devnet, dir, { 'why.txt': `${why}\n` });
    this.log(`${why}: every node's log kept in ${dir}`);
    return dir;
  }

  /**
   * Ends the run: loads stopped, the invariants checked (unless it failed), the logs kept if it
   * failed (or an invariant did not hold), and what this testkit started torn down. Throws the
   * invariants' failure after the teardown.
   */
  stop(o: StopOptions = {}): Promise<void> {
    // Once: a signal during a stop waits for that stop.
    this.stopping ??= this.end(o);
    return this.stopping;
  }

  private async end(o: StopOptions): Promise<void> {
    if (o.failed) this.failed = true;
    let broken: unknown = null;
    try {
      await Promise.allSettled([...this.loads].map((l) => l.stop()));
      if (!this.failed && o.invariants !== false)
        await this.checkInvariants().catch((e: unknown) => {
          broken = e;
        });
      if (this.failed)
        await this.keepLogs(broken === null ? (o.why ?? 'the run failed') : (broken as Error).message).catch(
          (e: Error) => this.log(`keeping the logs failed: ${e.message}`),
        );
    } finally {
      if (this.run.owned && o.keep) {
        if (this.run.runId !== null) await new RunRegistry().remove(this.run.runId);
        this.log(
          `kept running in ${this.home}: devnet status --home ${this.home}; devnet down --home ${this.home}`,
        );
      } else if (this.run.owned) {
        const removed = await takeDown(this.devnet.layout, this.devnet.runtime, false).catch((e: Error) => [
          `teardown failed: ${e.message}`,
        ]);
        if (this.run.tmp !== null) await rm(this.run.tmp, { recursive: true, force: true });
        if (this.run.runId !== null) await new RunRegistry().remove(this.run.runId);
        this.log(`torn down (${removed.length} things removed)`);
      }
      this.unregister();
    }
    if (broken !== null) throw broken;
  }
}

/**
 * Starts a testnet, runs `body` with it, and stops it whatever happens: the invariants are
 * checked when the body succeeded, the logs kept when anything failed.
 */
export async function withTestnet<T>(o: StartOptions, body: (net: Testnet) => Promise<T>): Promise<T> {
  const net = await Testnet.start(o);
  let result: T;
  try {
    result = await body(net);
  } catch (e) {
    await net.stop({ failed: true });
    throw e;
  }
  await net.stop();
  return result;
}
