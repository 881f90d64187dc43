/**
 * A testnet on the simulation (docs/TESTKIT.md, "Simulation"): the manifest's validators as a
 * SimCluster, the node's own code on a virtual clock, a simulated network and in-memory disks, in
 * this process; their RPC reached in-process (the node's own RPC app) and every wait of the
 * process on the simulation's clock (kit/wait's useWaitClock) while it runs. A test written against
 * TestnetBase (the e2e suite's rotation, jailing, crashes, partitions) runs here unchanged, in
 * virtual time: minutes of chain time in seconds, and the same run for the same seed (the
 * testkit's randomness drawn from it too: random.ts), whose fingerprint (one hash over every
 * node's headers) says so.
 *
 * The seed: the caller's, else TESTKIT_SEED, else the manifest's; a failed run's folder and its
 * log line name it, and TESTKIT_SEED=S replays the run. One SimTestnet at a time in a process:
 * the waits' clock is the process's.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { useWaitClock } from '@chain-devnet/kit/wait';
import type { TxType } from '@chain-devnet/node/chain';
import { SimCluster } from '@chain-devnet/node/sim';
import type { AddResult } from '../../operations/add.js';
import { healAll } from '../../operations/net.js';
import { sendTxOn, type TxOutcome } from '../../operations/tx.js';
import { signUpgradeOn, type UpgradePlanResult } from '../../operations/upgradePlan.js';
import { type Manifest, manifestZones, requireManifest } from '../../spec/manifest.js';
import { DEFAULTS } from '../../spec/networkSpec.js';
import { simClusterOptions, simManifestProblems } from '../../spec/simManifest.js';
import { mergeLogs, parseLog } from '../../timeline/entries.js';
import { formatTimeline } from '../../timeline/format.js';
import { TimeControl } from '../chainTime.js';
import { TestkitError, TestkitUsageError } from '../errors.js';
import type { InvariantOptions } from '../invariants/index.js';
import { defaultLogsDir, stamp } from '../nodeLogs.js';
import { seededTestRandom, useTestRandom } from '../random.js';
import { type NodeRunView, TestnetBase } from './base.js';
import { Conditions } from './conditions.js';
import { type DevnetTx, runLog, type StopOptions, type TestnetAdd, type TestnetPlan } from './options.js';
import { partitionGroups } from './partition.js';
import { addSimNode } from './simAdd.js';
import { SimNet } from './simNet.js';
import { simContext, simNodes, simTxNetwork } from './simNodes.js';
import { simTimeHost } from './simTime.js';

export interface SimStartOptions {
  /** The devnet's manifest, as Testnet.start takes it; only what the simulation has (simManifest.ts). */
  readonly manifest?: Manifest;
  /** Decides every delay, fault and draw of the run; default TESTKIT_SEED, else the manifest's seed. */
  readonly seed?: string;
  /** For the progress lines and a failed run's folder; default "testnet". */
  readonly name?: string;
  readonly log?: (line: string) => void;
  /** Where a failed run keeps every node's log (default: the testkit's, as Testnet's). */
  readonly keepLogsDir?: string;
  readonly invariants?: InvariantOptions;
}

/** The process's one SimTestnet, while it runs. */
let running: SimTestnet | null = null;

export class SimTestnet extends TestnetBase {
  override readonly conditions: Conditions;
  override readonly time: TimeControl;

  private constructor(
    readonly cluster: SimCluster,
    private readonly simNet: SimNet,
    readonly seed: string,
    private readonly name: string,
    private readonly logsDir: string,
    /** What stop puts back: the waits' clock and the testkit's randomness of the process. */
    private readonly restore: readonly (() => void)[],
    log: (line: string) => void,
    invariants: InvariantOptions,
  ) {
    super(simContext(cluster), simNodes(cluster), log, invariants);
    this.conditions = new Conditions(simNet, (line) => this.log(line));
    this.time = new TimeControl(simTimeHost(cluster, this.params.epochLength), this.net);
  }

  /** The manifest's validators brought up on the simulation, every wait of the process on its clock. */
  static async start(o: SimStartOptions = {}): Promise<SimTestnet> {
    if (running !== null)
      throw new TestkitUsageError(
        'a SimTestnet already runs in this process (the waits have one clock): stop it first',
      );
    const manifest = requireManifest(o.manifest ?? {}, 'the manifest');
    const problems = simManifestProblems(manifest);
    if (problems.length > 0)
      throw new TestkitUsageError(`the manifest does not run on the simulation: ${problems.join('; ')}`);
    const seed = o.seed ?? process.env.TESTKIT_SEED ?? manifest.seed ?? DEFAULTS.seed;
    const name = o.name ?? 'testnet';
    const log = runLog(name, o.log);
    const cluster = await SimCluster.open(simClusterOptions(manifest, seed));
    const net = new SimTestnet(
      cluster,
      await SimNet.open(cluster, manifestZones(manifest)),
      seed,
      name,
      resolve(o.keepLogsDir ?? defaultLogsDir()),
      [useWaitClock(cluster.waitClock()), useTestRandom(seededTestRandom(`testkit:${seed}`))],
      log,
      o.invariants ?? {},
    );
    running = net;
    log(
      `simulation of ${cluster.names.length} validators, seed ${JSON.stringify(seed)} (TESTKIT_SEED replays it): ${net.params.blockTimeMs} ms blocks, epochs of ${net.params.epochLength}`,
    );
    return net;
  }

  override get runtime(): 'sim' {
    return 'sim';
  }

  override async partition(groups: readonly (readonly string[])[]): Promise<void> {
    const full = partitionGroups(this.names(), groups);
    await this.cluster.apply({ kind: 'split', groups: full });
    this.log(`partition: ${full.map((g) => `[${g.join(', ')}]`).join(' ')}`);
  }

  override get isPartitioned(): boolean {
    return this.cluster.network.isCut;
  }

  override async heal(): Promise<void> {
    const was = this.isPartitioned;
    await healAll(this.simNet);
    if (was) this.log('partition healed');
  }

  /** `devnet add` on the simulation (simAdd.ts). */
  override add(o: TestnetAdd = {}): Promise<AddResult> {
    return addSimNode(
      { cluster: this.cluster, simNet: this.simNet, net: this.net, log: (l) => this.log(l) },
      o,
    );
  }

  /** `devnet upgrade plan` on the simulation: the validators sign it as on a devnet (operations/upgradePlan.ts). */
  override async upgradePlan(o: TestnetPlan): Promise<UpgradePlanResult> {
    const r = await signUpgradeOn(simTxNetwork(this.cluster, this.net), {
      ...o,
      cancel: o.cancel ?? false,
      progress: (l) => this.log(l),
    });
    this.ledger.recordPlan(r);
    return r;
  }

  override async tx(type: TxType, o: DevnetTx): Promise<TxOutcome> {
    const r = await sendTxOn(simTxNetwork(this.cluster, this.net), { ...o, type, wait: o.wait ?? true });
    if (r.receipt?.status === 'confirmed')
      this.ledger.record(r.tx_hash, r.receipt.block_height!, `${type} from ${o.from}`);
    return r;
  }

  override async status(): Promise<NodeRunView[]> {
    return this.cluster.names.map((name) => {
      const n = this.cluster.node(name);
      return {
        name,
        state: !n.up ? 'stopped' : n.paused ? 'paused' : 'running',
        disconnected: this.cluster.network.isDisconnected(name),
      };
    });
  }

  /** SHA-256 over every node's header hashes: the same for two runs of one test and seed. */
  async fingerprint(): Promise<string> {
    return (await this.cluster.chains()).fingerprint;
  }

  protected override async end(o: StopOptions): Promise<void> {
    let broken: unknown = null;
    try {
      broken = await this.endLoadsAndCheck(o);
      const defects = this.cluster.nodeFailures();
      if (broken === null && defects.length > 0) {
        this.failed = true;
        broken = new TestkitError(this.net.step, {
          node: 'every node',
          height: this.cluster.head,
          expected: 'no node to fail outside its handlers',
          found: defects.join('; '),
        });
      }
      const chains = await this.cluster.chains();
      this.log(
        `seed ${JSON.stringify(this.seed)}: fingerprint ${chains.fingerprint} (${(this.cluster.elapsedMs / 1000).toFixed(1)} s of virtual time)`,
      );
      if (this.failed)
        await this.keepLogs(broken === null ? (o.why ?? 'the run failed') : (broken as Error).message).catch(
          (e: Error) => this.log(`keeping the logs failed: ${e.message}`),
        );
    } finally {
      await this.cluster.close();
      for (const put of this.restore) put();
      running = null;
    }
    if (broken !== null) throw broken;
  }

  /** Every node's log and the seed that replays the run, into a new folder under the logs folder. */
  private async keepLogs(why: string): Promise<void> {
    const dir = join(this.logsDir, `${this.name}-sim-${stamp()}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'why.txt'), `${why}\nreplay: TESTKIT_SEED=${this.seed}\n`);
    for (const n of this.cluster.names)
      await writeFile(join(dir, `${n}.log`), `${this.cluster.node(n).logLines.join('\n')}\n`);
    // Every node's log on one (virtual) time axis, as `devnet logs --all` prints a devnet's.
    const entries = mergeLogs(
      this.cluster.names.map((n) => parseLog(n, this.cluster.node(n).logLines.join('\n'))),
    );
    await writeFile(join(dir, 'timeline.log'), formatTimeline(entries));
    this.log(`${why}: every node's log kept in ${dir} (TESTKIT_SEED=${this.seed} replays the run)`);
  }
}
