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
import { type BlockHeader, blockHash, type Genesis, MIGRATIONS } from '../chain/index.js';
import { ConsensusDriver } from '../consensus/driver/driver.js';
import type { RecordEntry } from '../consensus/record/format.js';
import { DEFAULT_TIMEOUTS } from '../consensus/types.js';
import { type DiskFaults, diskFaultsLog, NO_DISK_FAULTS, noDiskFault } from '../disk/faults.js';
import { DiskLayer } from '../disk/layer.js';
import { byzantineValidator } from '../faults/byzantine.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import { DEFAULT_MEMPOOL_OPTIONS } from '../mempool/mempool.js';
import { conditionsLogFields, NET_CONDITIONS_SET } from '../p2p/shaping/conditions.js';
import { CheckedSigner, NEVER_SIGNED, type PrivValidatorState } from '../privval/index.js';
import { createRpcApp } from '../rpc/app.js';
import { type ChainCore, type MemoryDisk, memoryDisk, openChainCore } from '../service/chainCore.js';
import type { ChainService } from '../service/chainService.js';
import { ChainStore } from '../store/chainStore.js';
import { startPeerServices } from '../sync/index.js';
import type { SimRandom } from './random.js';
import type { SimScheduler, SimTicker } from './scheduler.js';
import type { SimNetwork } from './simNetwork.js';

/** What every node of a run shares: the clock, the network, the chain. */
export interface SimWorld {
  readonly scheduler: SimScheduler;
  readonly network: SimNetwork;
  readonly genesis: Genesis;
  readonly blockTimeMs: number;
  /** The start grace of the driver (0: none; the node's is START_GRACE_MS). */
  readonly startGraceMs: number;
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
}

export class SimNode {
  /** Outlives each run of the node, as a disk does. */
  private readonly disk: MemoryDisk = memoryDisk();
  /** The priv-validator state at its last crash: a restart signs nothing that conflicts with it. */
  private signed: PrivValidatorState = NEVER_SIGNED;
  private running: Running | null = null;
  private starts = 0;
  /** How far its clock is off the network's (kept across its restarts, as the devnet keeps a skew). */
  private skewOffset = 0;
  /** The height it had when it last went down (its store is closed then). */
  private lastHeight = 0;
  /** Its disk's faults (`devnet disk`): the disk's, so kept across its restarts. */
  private faults: DiskFaults = NO_DISK_FAULTS;
  /** What went wrong in it outside a handler (a start that failed). */
  readonly failures: string[] = [];
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
    /** TEST ONLY, as chain-node's --byzantine: it signs and sends two versions of each message. */
    readonly byzantine: ByzantineMode | null = null,
    /** Its consensus record (consensus/record), every run of it, when it records (as --record-consensus). */
    readonly record: RecordEntry[] | null = null,
  ) {}

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
   * when this resolves, its consensus going on as the run goes.
   */
  async start(): Promise<void> {
    if (this.running !== null) return;
    const { scheduler, network, genesis } = this.world;
    const ticker = scheduler.tickerFor(this.skewOffset, this.name);
    const logger = createLogger({
      level: 'info',
      write: (line) => this.logLines.push(line),
      now: () => new Date(ticker.now()),
    });
    // The node's own disk fault layer (disk/layer.ts) on its clock: a write refused when full, slowed
    // on the ticker, held until an fsync (a crash loses it). Nothing blocks the thread here: the
    // priv-validator's synchronous writes are refused when full but take no time.
    const diskLayer = new DiskLayer(ticker, () => undefined);
    diskLayer.set(this.faults);
    const core = await openChainCore({
      home: `/sim/${this.name}`, // never written: the disk is in memory
      storage: this.disk,
      diskLayer,
      mempool: DEFAULT_MEMPOOL_OPTIONS,
      logger,
      now: ticker.now,
      migrations: MIGRATIONS,
    });
    await core.service.open(genesis);
    const port = network.port(this.name);
    const random = this.random.fork(`start ${this.starts++}`);
    const sync = await startPeerServices(port, core.service, core.metrics, logger, {
      ticker,
      random: () => random.next(),
    });
    const { checked, liar } = this.signers(core, diskLayer);
    const driver = new ConsensusDriver(
      {
        privateKey: this.privateKey,
        signer: checked ?? liar!.signer,
        equivocator: liar?.equivocator ?? null,
        blockTimeMs: this.world.blockTimeMs,
        timeouts: DEFAULT_TIMEOUTS,
        rebroadcastMs: 1000,
        maxClockDriftSec: 30,
        startGraceMs: this.world.startGraceMs,
      },
      {
        service: core.service,
        network: port,
        sync,
        metrics: core.metrics,
        logger,
        ticker,
        ...(this.record === null ? {} : { record: { write: (e: RecordEntry) => this.record!.push(e) } }),
      },
    );
    const rpc = createRpcApp(core.service, core.metrics, logger.child({ part: 'rpc' })).callback();
    this.running = { core, driver, signer: checked, ticker, rpc, logger, diskLayer };
    if (!noDiskFault(this.faults)) this.noteDiskFaults();
    // As chain-node reads its net_conditions.json at start: the conditions in force, if any.
    if (network.rulesOf(this.name).length > 0 || network.deafCount(this.name) > 0) this.noteNetConditions();
    // Not awaited: its start catches up by block sync first, which takes the run's virtual time.
    driver
      .start()
      .catch((e: unknown) =>
        this.failures.push(`${this.name}: consensus did not start: ${(e as Error).message}`),
      );
  }

  /**
   * Its signer: the checked one (its state kept in memory, read back at a crash; each record a
   * write and an fsync through the disk fault layer, as home/privValidator.ts, told to the disk's
   * health), or a Byzantine validator's own test-only parts (main/chainParts.ts; the simulated
   * port splits a publish itself).
   */
  private signers(core: ChainCore, diskLayer: DiskLayer) {
    if (this.byzantine !== null)
      return {
        checked: null,
        liar: byzantineValidator(this.byzantine, this.world.genesis, this.privateKey, core.service),
      };
    const persist = () => {
      try {
        diskLayer.writeSync();
        diskLayer.fsyncSync();
      } catch (e) {
        core.health.failed('priv-validator', e);
        throw e;
      }
      core.health.succeeded('priv-validator');
    };
    return {
      checked: new CheckedSigner(this.privateKey, this.signed, { persist, onRefusal: () => undefined }),
      liar: null,
    };
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
    const r = this.running;
    if (r === null) return;
    this.running = null;
    this.lastHeight = r.core.service.state.height;
    if (r.signer !== null) this.signed = r.signer.current;
    r.ticker.silence();
    this.world.network.down(this.name);
    this.world.scheduler.unpause(this.name);
    await r.driver.stop();
    await r.core.store.close();
  }

  /**
   * Its own clock `ms` ahead of the network's (behind when negative), through its injected clock,
   * as `devnet clock NODE --skew` does: its timestamps and its checks of others' move, its waits not.
   */
  skew(ms: number): void {
    this.skewOffset = ms;
    this.running?.ticker.setOffset(ms);
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

  /** Its headers, height 1 first: from its running chain, or from its disk when it is down. */
  async headers(): Promise<BlockHeader[]> {
    const r = this.running;
    if (r !== null) {
      const height = r.core.service.state.height;
      const blocks = height === 0 ? [] : await r.core.service.blocksWithCommits(1, height);
      return blocks.map((b) => b.block.header);
    }
    const store = await ChainStore.open(`/sim/${this.name}/data`, null, this.disk.db);
    try {
      const headers: BlockHeader[] = [];
      for (let h = 1; h <= ((await store.height()) ?? 0); h++) {
        const block = await store.block(h);
        if (block === null) throw new Error(`${this.name}'s disk has no block ${h} below its height`);
        headers.push(block.header);
      }
      return headers;
    } finally {
      await store.close();
    }
  }

  async headerHashes(): Promise<string[]> {
    return (await this.headers()).map((h) => blockHash(h));
  }
}
