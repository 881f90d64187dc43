/**
 * A devnet under test: started from a manifest on any runtime (through the same operations as
 * `devnet up`, in this process) or attached to a running one; node handles, partitions, waits,
 * assertions, a load generator, the invariants; and always torn down when it was started here:
 * by stop() (after the invariants), on SIGINT and SIGTERM, and at the next start when a killed
 * run left it behind. A failed run keeps every node's log in a folder it names.
 */
import { join } from 'node:path';
import type { TxType } from '@chain-devnet/node/chain';
import type { Devnet } from '../../devnet/devnet.js';
import type { NodeStatus } from '../../devnet/nodeStatus.js';
import { type AddResult, addNode } from '../../operations/add.js';
import { startAll, stopAll } from '../../operations/lifecycle.js';
import { marketUrl } from '../../operations/market.js';
import { type SaveResult, save } from '../../operations/save.js';
import { sendTx, type TxOutcome } from '../../operations/tx.js';
import { signUpgrade, type UpgradePlanResult } from '../../operations/upgradePlan.js';
import type { RuntimeKind } from '../../runtime/runtime.js';
import { TimeControl } from '../chainTime.js';
import { devnetNodes } from '../nodeHandle.js';
import { keepLogs, stamp } from '../nodeLogs.js';
import { onInterrupt } from '../signals.js';
import { TestnetBase } from './base.js';
import { Conditions } from './conditions.js';
import { devnetContext } from './devnetContext.js';
import { keepArchive } from './failureArchive.js';
import type { DevnetTx, Run, StartOptions, StopOptions, TestnetAdd, TestnetPlan } from './options.js';
import { endPartition, makePartition } from './partition.js';
import { attachRun, startRun } from './start.js';
import { releaseDevnet } from './teardown.js';

export class Testnet extends TestnetBase {
  override readonly conditions: Conditions;
  private unregister: () => void = () => undefined;
  /** A partition made by this object is in force. */
  private partitioned = false;
  /** Each node's RPC as its runtime publishes it (on a swarm: the machine that runs it). */
  private readonly rpcUrls: Map<string, string>;

  private constructor(
    readonly devnet: Devnet,
    private readonly run: Run,
  ) {
    const rpcUrls = new Map<string, string>();
    super(
      devnetContext(devnet, (name) => rpcUrls.get(name)),
      devnetNodes(devnet),
      run.log,
      run.invariants,
    );
    this.rpcUrls = rpcUrls;
    this.conditions = new Conditions(devnet, (line) => this.log(line));
    this.time = new TimeControl(devnet, this.net);
  }

  /**
   * Brings a devnet up from a manifest (monitoring off unless it says otherwise; a free base port
   * unless it names one) and waits for a final block on every node. What a killed run left behind
   * is torn down first.
   */
  static start(o: StartOptions = {}): Promise<Testnet> {
    return startRun(o, async (devnet, run) => {
      const net = new Testnet(devnet, run);
      await net.learnEndpoints();
      net.unregister = onInterrupt((sig) =>
        net.stop({ failed: true, invariants: false, why: `interrupted by ${sig}` }).catch(() => undefined),
      );
      return {
        made: net,
        upLine: `${net.params.blockTimeMs} ms blocks, epochs of ${net.params.epochLength}`,
      };
    });
  }

  /** A devnet again from its archive (`devnet save`, Testnet.save), on `o.runtime` (default auto). */
  static restore(
    file: string,
    o: Omit<StartOptions, 'from' | 'manifest' | 'manifestFile'> = {},
  ): Promise<Testnet> {
    return Testnet.start({ ...o, from: file });
  }

  /** The whole devnet into one archive (`devnet save`): nodes stopped at once, copied, started again. */
  async save(file: string): Promise<SaveResult> {
    const r = await save(this.devnet, file, (l) => this.log(l));
    this.log(`saved ${file} at heights ${JSON.stringify(r.manifest.heights)}`);
    return r;
  }

  /** A devnet already running (its --home): used as it is, never torn down by this testkit. */
  static async attach(
    home: string,
    o: Pick<StartOptions, 'name' | 'log' | 'keepLogsDir' | 'invariants'> = {},
  ) {
    const { devnet, run } = await attachRun(home, o);
    const net = new Testnet(devnet, run);
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

  override get runtime(): RuntimeKind {
    return this.devnet.state.runtime;
  }

  /** True when this testkit started the devnet (and so tears it down). */
  get owned(): boolean {
    return this.run.owned;
  }

  override readonly time: TimeControl;

  /** The task market's URL (manifest `market: true`, docs/MARKET.md), or null without it. */
  get market(): string | null {
    return marketUrl(this.devnet);
  }

  /**
   * The whole devnet stopped, every node gracefully and its services with them (`devnet stop`);
   * returns the highest height seen just before the stop (a block may still follow it).
   * startAll() resumes it; until then no node answers.
   */
  async stopAll(): Promise<number> {
    const height = await stopAll(this.devnet, (line) => this.log(line));
    this.log(`devnet stopped (at height ${height} or just above)`);
    return height;
  }

  /** The stopped devnet started again where it stopped, every node at once (`devnet start`). */
  async startAll(): Promise<void> {
    await startAll(this.devnet, (line) => this.log(line));
    await this.learnEndpoints();
    this.log('devnet started again');
  }

  /**
   * A partition into groups of node names, each node then talking only to its group's; the nodes
   * named in no group form one more group. Real on every runtime (blocked-peers fault injection).
   */
  override async partition(groups: readonly (readonly string[])[]): Promise<void> {
    await makePartition(this.devnet, this.net, groups, (line) => this.log(line));
    this.partitioned = true;
  }

  /** Whether a partition made here is in force. */
  override get isPartitioned(): boolean {
    return this.partitioned;
  }

  /** Ends a partition: every node talks to every other again (a node disconnected stays so). */
  override async heal(): Promise<void> {
    await endPartition(this.devnet);
    if (this.partitioned) this.log('partition healed');
    this.partitioned = false;
  }

  override async add(o: TestnetAdd = {}): Promise<AddResult> {
    const r = await addNode(this.devnet, { ...o, progress: (line) => this.log(line) });
    await this.learnEndpoints();
    this.ledger.recordAdded(r);
    return r;
  }

  /** `devnet tx`: signed with an account's, a node's (validator) or a hex key; waits unless wait is false. */
  override async tx(type: TxType, o: DevnetTx): Promise<TxOutcome> {
    const r = await sendTx(this.devnet, { ...o, type, wait: o.wait ?? true });
    if (r.receipt?.status === 'confirmed')
      this.ledger.record(r.tx_hash, r.receipt.block_height!, `${type} from ${o.from}`);
    return r;
  }

  override async upgradePlan(o: TestnetPlan): Promise<UpgradePlanResult> {
    const r = await signUpgrade(this.devnet, {
      ...o,
      cancel: o.cancel ?? false,
      progress: (l) => this.log(l),
    });
    this.ledger.recordPlan(r);
    return r;
  }

  /** Every node as the runtime and its RPC see it. */
  override status(): Promise<NodeStatus[]> {
    return this.devnet.status();
  }

  /** Every node's log and the status into a new folder under the run's log folder; its path. */
  async keepLogs(why = 'failed', archive: { restart: boolean } | null = null): Promise<string> {
    const dir = join(this.run.logsDir, `${this.run.name}-${this.runtime}-${stamp()}`);
    await keepLogs(this.devnet, dir, { 'why.txt': `${why}\n` });
    this.log(`${why}: every node's log kept in ${dir}`);
    if (archive !== null) await keepArchive(this.devnet, dir, archive.restart, (l) => this.log(l));
    return dir;
  }

  protected override async end(o: StopOptions): Promise<void> {
    let broken: unknown = null;
    try {
      broken = await this.endLoadsAndCheck(o);
      if (this.failed)
        await this.keepLogs(broken === null ? (o.why ?? 'the run failed') : (broken as Error).message, {
          restart: !this.run.owned || o.keep === true,
        }).catch((e: Error) => this.log(`keeping the logs failed: ${e.message}`));
    } finally {
      await releaseDevnet(this.devnet, this.run, o.keep === true);
      this.unregister();
    }
    if (broken !== null) throw broken;
  }
}
