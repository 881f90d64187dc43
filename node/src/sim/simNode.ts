/**
 * One validator of a simulated network, built as the composition root builds a node (main/node.ts,
 * main/chainParts.ts): its chain core on an in-memory disk, the gossip of transactions, block sync
 * and the snapshots served (sync/peerServices.ts), the checked signer and the consensus driver,
 * on the simulation's clock, network and randomness. It can crash (its timers end, its network
 * goes, its store closes) and start again from what its disk and its priv-validator state hold,
 * as a killed node does; and it can be paused (its events wait) and go on.
 */
import type { RequestListener } from 'node:http';
import { createLogger, type Logger } from '@chain-devnet/kit/log';
import {
  type BlockHeader,
  blockHash,
  type Genesis,
  MIGRATIONS,
  UPGRADE_HALT_EXIT_CODE,
  VERSION_REFUSED_EXIT_CODE,
} from '../chain/index.js';
import type { ConsensusDriver } from '../consensus/driver/driver.js';
import type { RecordEntry } from '../consensus/record/format.js';
import { type DiskFaults, diskFaultsLog, NO_DISK_FAULTS, noDiskFault } from '../disk/faults.js';
import type { DiskLayer } from '../disk/layer.js';
import { applyChainControl, type ChainControlInForce } from '../faults/chainControl.js';
import { type ChainControl, formatChainControl, NO_CHAIN_CONTROL } from '../faults/chainControlFile.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import { UpgradeGuard } from '../main/upgradeGuard.js';
import type { NodePort } from '../p2p/network.js';
import { conditionsLogFields, NET_CONDITIONS_SET } from '../p2p/shaping/conditions.js';
import { type CheckedSigner, NEVER_SIGNED, type PrivValidatorState } from '../privval/index.js';
import { type ChainCore, type MemoryDisk, memoryDisk } from '../service/chainCore.js';
import type { ChainService } from '../service/chainService.js';
import { ChainStore } from '../store/chainStore.js';
import { type BlockSync, startPeerServices } from '../sync/index.js';
import { NODE_VERSION } from '../util/nodeVersion.js';
import type { SimRandom } from './random.js';
import type { SimScheduler, SimTicker } from './scheduler.js';
import type { SimNetwork } from './simNetwork.js';
import {
  controlPathOf,
  headersOf,
  lingerForLaggards,
  openSimChain,
  openSimCore,
  rpcApp,
  simConsensus,
} from './simNodeParts.js';

/** What every node of a run shares: the clock, the network, the chain. */
export interface SimWorld {
  readonly scheduler: SimScheduler;
  readonly network: SimNetwork;
  readonly genesis: Genesis;
  readonly blockTimeMs: number;
  /** The start grace of the driver (0: none; the node's is START_GRACE_MS). */
  readonly startGraceMs: number;
}

export interface SimNodeOptions {
  /** TEST ONLY, as chain-node's --byzantine. */
  readonly byzantine?: ByzantineMode | null;
  /** It records its consensus core, as --record-consensus. */
  readonly record?: boolean;
  /** With an empty store it joins from a verified snapshot of its peers, as --state-sync. */
  readonly stateSync?: boolean;
}

interface Running {
  readonly core: ChainCore;
  readonly driver: ConsensusDriver;
  /** The priv-validator's checks; null for a Byzantine node, which signs without them. */
  readonly signer: CheckedSigner | null;
  readonly ticker: SimTicker;
  /** Its RPC app (rpc/app.ts, as main/endpoints.ts serves it), reached in this process. */
  readonly rpc: RequestListener;
  readonly logger: Logger;
  /** Its disk fault layer, set to the faults of its disk. */
  readonly diskLayer: DiskLayer;
  /** The chain control in force on it (its pace of heights, its clocks), as --fault-injection's. */
  readonly control: ChainControlInForce;
  /** Its view of the network for this run. */
  readonly port: NodePort;
}

export class SimNode {
  /** Outlives each run of the node, as a disk does. */
  private readonly disk: MemoryDisk = memoryDisk();
  /** The priv-validator state at its last crash: a restart signs nothing that conflicts with it. */
  private signed: PrivValidatorState = NEVER_SIGNED;
  private running: Running | null = null;
  /** A start under way (its state sync takes virtual time), and whether a crash came during it. */
  private starting: Promise<void> | null = null;
  private crashWhileStarting = false;
  /** A crash closing its store: a start waits for it (the disk is one). */
  private closing: Promise<void> | null = null;
  private starts = 0;
  /** How far its clock is off the network's (kept across its restarts, as the devnet keeps a skew). */
  private skewOffset = 0;
  /** The height it had when it last went down (its store is closed then). */
  private lastHeight = 0;
  /** Its disk's faults (`devnet disk`): the disk's, so kept across its restarts. */
  private faults: DiskFaults = NO_DISK_FAULTS;
  /**
   * The chain control it was last given (`devnet chain`, net.time), kept across its restarts as
   * its home's chain_control.json is; its clock skew is `skewOffset`.
   */
  private chainControlGiven: ChainControl = NO_CHAIN_CONTROL;
  /** What went wrong in it outside a handler (a start that failed). */
  readonly failures: string[] = [];
  /**
   * Its exit code when it halted as chain-node exits (3: an upgrade plan's height it has no
   * migration for; 4: a stored state at a protocol version it does not run); null while it runs
   * or was only crashed.
   */
  exitCode: number | null = null;
  /**
   * Its log, every run of it, one JSON line an entry as chain-node writes at level info; its
   * times the node's virtual clock's, so that a seed gives the same log.
   */
  readonly logLines: string[] = [];

  constructor(
    readonly name: string,
    private readonly privateKey: Uint8Array,
    private readonly world: SimWorld,
    private readonly random: SimRandom,
    private readonly options: SimNodeOptions = {},
  ) {
    this.byzantine = options.byzantine ?? null;
    this.record = options.record === true ? [] : null;
  }

  /** TEST ONLY, as chain-node's --byzantine: it signs and sends two versions of each message. */
  readonly byzantine: ByzantineMode | null;
  /** Its consensus record (consensus/record), every run of it, when it records (as --record-consensus). */
  readonly record: RecordEntry[] | null;

  get up(): boolean {
    return this.running !== null;
  }

  /** Its chain service while it is up (what its RPC would call), else null. */
  get service(): ChainService | null {
    return this.running?.core.service ?? null;
  }

  /** Its RPC while it is up (a request handler, no socket), else null: a node down answers nothing. */
  get rpc(): RequestListener | null {
    return this.running?.rpc ?? null;
  }

  get height(): number {
    return this.running?.core.service.state.height ?? this.lastHeight;
  }

  /**
   * Starts the node on its disk, its clock skewed as it was: its store opened and its services up
   * when this resolves, its consensus going on as the run goes. A joiner by state sync with an
   * empty store (chain-node start --state-sync) restores a verified snapshot of its peers first.
   */
  async start(): Promise<void> {
    if (this.running !== null) return;
    // Started again before a start under way ended (a crash asked meanwhile is undone).
    this.crashWhileStarting = false;
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async open(): Promise<void> {
    await this.closing; // a crash still closing its store: the disk is one
    const { scheduler, network, genesis } = this.world;
    const ticker = scheduler.tickerFor(this.skewOffset, this.name);
    const logger = createLogger({
      level: 'info',
      write: (line) => this.logLines.push(line),
      now: () => new Date(ticker.now()),
    });
    const { core, diskLayer, control } = await openSimCore(
      { name: this.name, disk: this.disk, faults: this.faults, control: this.chainControl, scheduler },
      ticker,
      logger,
    );
    const port = network.port(this.name);
    // Down again before it ran (a start that failed, refused, or crashed during its state sync).
    const down = async () => {
      ticker.silence();
      network.down(this.name);
      await core.store.close();
    };
    let refusal: string | null;
    try {
      refusal = await openSimChain(core, port, genesis, this.options.stateSync === true, ticker, logger);
    } catch (e) {
      await down();
      throw e;
    }
    if (this.crashWhileStarting) return down();
    if (refusal !== null) {
      this.exitCode = VERSION_REFUSED_EXIT_CODE;
      return down();
    }
    this.exitCode = null;
    const guard = new UpgradeGuard(MIGRATIONS, NODE_VERSION, logger.child({ part: 'upgrade' }));
    core.service.onCommit((_block, result) => guard.haltsBefore(result.state));
    const random = this.random.fork(`start ${this.starts++}`);
    const sync = await startPeerServices(port, core.service, core.metrics, logger, {
      ticker,
      random: () => random.next(),
    }).catch(async (e: unknown) => {
      await down();
      throw e;
    });
    const who = {
      ...this.world,
      privateKey: this.privateKey,
      byzantine: this.byzantine,
      signed: this.signed,
      record: this.record,
    };
    const parts = { core, diskLayer, control, port, sync, ticker, logger, guard };
    const { driver, checked } = simConsensus(who, parts);
    const rpc = rpcApp(core, driver, control, logger);
    this.running = { core, driver, signer: checked, ticker, rpc, logger, diskLayer, control, port };
    if (!noDiskFault(this.faults)) this.noteDiskFaults();
    // As chain-node reads its net_conditions.json at start: the conditions in force, if any.
    if (network.rulesOf(this.name).length > 0 || network.deafCount(this.name) > 0) this.noteNetConditions();
    void guard.halted.then(() => this.halt(sync));
    // A node restarted at a plan's height it cannot apply halts again at once, before any sync.
    if (guard.haltsBefore(core.service.state)) return;
    // Not awaited: its start catches up by block sync first, which takes the run's virtual time.
    driver
      .start()
      .catch((e: unknown) =>
        this.failures.push(`${this.name}: consensus did not start: ${(e as Error).message}`),
      );
  }

  /**
   * Halted at an upgrade plan's height (main/upgradeGuard.ts): as chain-node, it serves its blocks
   * to the peers still behind it (sync/block/haltLinger.ts), then exits with code 3; a devnet's
   * supervisor or a test restarts it (on the simulation, this build again: it halts again).
   */
  private async halt(sync: BlockSync): Promise<void> {
    const r = this.running;
    if (r === null) return;
    await lingerForLaggards(r, sync, () => this.running === r);
    if (this.running !== r) return;
    this.exitCode = UPGRADE_HALT_EXIT_CODE;
    await this.crash();
  }

  /**
   * Logs its network conditions now (the rules on its links, the nodes cut one way towards it), as
   * chain-node logs its net_conditions.json applied; a node down logs them at its next start.
   */
  noteNetConditions(): void {
    const network = this.world.network;
    this.running?.logger.info(
      NET_CONDITIONS_SET,
      conditionsLogFields(network.rulesOf(this.name).length, network.deafCount(this.name)),
    );
  }

  /** Its disk's faults now. */
  get diskFaults(): DiskFaults {
    return this.faults;
  }

  /** Its disk's faults from now on (`devnet disk`): in force at once if it runs, else at its start. */
  setDiskFaults(f: DiskFaults): void {
    this.faults = f;
    this.running?.diskLayer.set(f);
    this.noteDiskFaults();
  }

  /** As chain-node logs its disk_faults.json applied (faults/diskFaults.ts). */
  private noteDiskFaults(): void {
    const { msg, fields } = diskFaultsLog(this.faults);
    this.running?.logger.warn(msg, fields);
  }

  /** Killed: no timer fires, nothing reaches it or leaves it, the store closes with what it holds. */
  async crash(): Promise<void> {
    // Crashed while its start waits on its peers (a state sync): it ends down when that returns.
    if (this.starting !== null && this.running === null) {
      this.crashWhileStarting = true;
      return;
    }
    const r = this.running;
    if (r === null) return;
    this.running = null;
    this.lastHeight = r.core.service.state.height;
    if (r.signer !== null) this.signed = r.signer.current;
    r.ticker.silence();
    this.world.network.down(this.name);
    this.world.scheduler.unpause(this.name);
    this.closing = (async () => {
      await r.driver.stop();
      await r.core.store.close();
    })();
    try {
      await this.closing;
    } finally {
      this.closing = null;
    }
  }

  /**
   * Its own clock `ms` ahead of the network's (behind when negative), through its injected clock,
   * as `devnet clock NODE --skew` does: its timestamps and its checks of others' move, its waits not.
   */
  skew(ms: number): void {
    this.skewOffset = ms;
    const r = this.running;
    if (r === null) return;
    r.ticker.setOffset(ms);
    r.control.set({ ...r.control.control, clockSkewMs: ms });
  }

  /** The chain control it was last given, its skew in it. */
  get chainControl(): ChainControl {
    return { ...this.chainControlGiven, clockSkewMs: this.skewOffset };
  }

  /**
   * Gives it a chain control (`devnet chain`, `devnet clock`), as its home's chain_control.json:
   * in force at once when it runs (refused as the node refuses one, logged, the one in force
   * staying), at its next start when it is down.
   */
  setChainControl(c: ChainControl): void {
    const r = this.running;
    if (r !== null) {
      applyChainControl(formatChainControl(c), r.control, controlPathOf(this.name), r.logger);
      if (formatChainControl(r.control.control) !== formatChainControl(c)) return; // refused
      r.ticker.setOffset(c.clockSkewMs);
    }
    this.chainControlGiven = { ...c, clockSkewMs: 0 };
    this.skewOffset = c.clockSkewMs;
  }

  /** How far its clock is off the network's now. */
  get skewMs(): number {
    return this.skewOffset;
  }

  /** Frozen (SIGSTOP): its timers and the messages to it wait until `unpause`. */
  pause(): void {
    if (this.running !== null) this.world.scheduler.pause(this.name);
  }

  unpause(): void {
    this.world.scheduler.unpause(this.name);
  }

  get paused(): boolean {
    return this.world.scheduler.isPaused(this.name);
  }

  /**
   * Its headers from the first block it holds (height 1, or the snapshot's a joiner by state sync
   * started from): from its running chain, or from its disk when it is down.
   */
  async headers(): Promise<BlockHeader[]> {
    const r = this.running;
    if (r !== null) return headersOf(r.core.store, r.core.service.state.height, this.name);
    const store = await ChainStore.open(`/sim/${this.name}/data`, null, this.disk.db);
    try {
      return await headersOf(store, (await store.height()) ?? 0, this.name);
    } finally {
      await store.close();
    }
  }

  async headerHashes(): Promise<string[]> {
    return (await this.headers()).map((h) => blockHash(h));
  }
}
