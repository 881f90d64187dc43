/**
 * The parts of a simulated node that main/ builds for a real one, built here as it builds them:
 * its chain opened (by state sync first for a joiner, a protocol version it does not run
 * refused), its signer (the checked one, or a Byzantine validator's test-only parts), its RPC app
 * with the chain control's test-only route; and the headers its store holds.
 */
import type { RequestListener } from 'node:http';
import type { Logger } from '@chain-devnet/kit/log';
import { type BlockHeader, type Genesis, MIGRATIONS, versionRefusal } from '../chain/index.js';
import { ConsensusDriver } from '../consensus/driver/driver.js';
import type { RecordEntry } from '../consensus/record/format.js';
import { DEFAULT_TIMEOUTS } from '../consensus/types.js';
import type { DiskFaults } from '../disk/faults.js';
import { DiskLayer } from '../disk/layer.js';
import { byzantineValidator } from '../faults/byzantine.js';
import { applyChainControl, ChainControlInForce } from '../faults/chainControl.js';
import {
  CHAIN_CONTROL_FILE,
  type ChainControl,
  formatChainControl,
  NO_CHAIN_CONTROL,
} from '../faults/chainControlFile.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import { wireTimeControl } from '../main/timeControl.js';
import type { UpgradeGuard } from '../main/upgradeGuard.js';
import { DEFAULT_MEMPOOL_OPTIONS } from '../mempool/mempool.js';
import type { NodePort } from '../p2p/network.js';
import { CheckedSigner, type PrivValidatorState } from '../privval/index.js';
import { createRpcApp } from '../rpc/app.js';
import type { TestOnlyRoutes } from '../rpc/handlers/netProbe.js';
import { type ChainCore, type MemoryDisk, openChainCore } from '../service/chainCore.js';
import type { ChainStore } from '../store/chainStore.js';
import { type BlockSync, DEFAULT_STATE_SYNC_OPTIONS, StateSync, serveLaggards } from '../sync/index.js';
import { NODE_VERSION } from '../util/nodeVersion.js';
import type { Ticker } from '../util/ticker.js';

/** Whose signer: its key, its genesis, the state it signed up to, and whether it lies. */
export interface SignerOf {
  readonly genesis: Genesis;
  readonly privateKey: Uint8Array;
  readonly byzantine: ByzantineMode | null;
  readonly signed: PrivValidatorState;
}

/**
 * Its signer: the checked one (its state kept in memory, read back at a crash; each record a
 * write and an fsync through the disk fault layer, as home/privValidator.ts, told to the disk's
 * health), or a Byzantine validator's own test-only parts (main/chainParts.ts; the simulated
 * port splits a publish itself).
 */
function signersOf(o: SignerOf, core: ChainCore, diskLayer: DiskLayer) {
  if (o.byzantine !== null)
    return { checked: null, liar: byzantineValidator(o.byzantine, o.genesis, o.privateKey, core.service) };
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
    checked: new CheckedSigner(o.privateKey, o.signed, { persist, onRefusal: () => undefined }),
    liar: null,
  };
}

/** Its RPC app as main/endpoints.ts serves it, with the chain control's test-only route (main/timeControl.ts). */
export function rpcApp(
  core: ChainCore,
  driver: ConsensusDriver,
  control: ChainControlInForce,
  logger: Logger,
): RequestListener {
  const testOnly: TestOnlyRoutes = { netProbe: null, chainControl: null };
  const time = { control, clock: control.clock, chainClock: control.chainClock };
  wireTimeControl(time, core.service, driver, testOnly, logger);
  return createRpcApp(
    core.service,
    core.metrics,
    logger.child({ part: 'rpc' }),
    undefined,
    testOnly,
  ).callback();
}

/** The headers a store holds up to `height`, from its first block (1, or the snapshot it was state-synced from). */
export async function headersOf(store: ChainStore, height: number, name: string): Promise<BlockHeader[]> {
  const headers: BlockHeader[] = [];
  for (let h = (await store.stateSyncedFrom()) ?? 1; h <= height; h++) {
    const block = await store.block(h);
    if (block === null) throw new Error(`${name}'s disk has no block ${h} below its height`);
    headers.push(block.header);
  }
  return headers;
}

/** The driver's options a simulated node shares with chain-node's (main/node.ts). */
export const SIM_DRIVER_OPTIONS = {
  timeouts: DEFAULT_TIMEOUTS,
  rebroadcastMs: 1000,
  maxClockDriftSec: 30,
} as const;

/**
 * Its chain opened as main/chainParts.ts opens it: an empty store of a joiner by state sync filled
 * from a verified snapshot of its peers first (the node's own StateSync), then the service opened
 * on genesis; why this build must not run on the state (logged, as chain-node refuses it), or null.
 */
export async function openSimChain(
  core: ChainCore,
  port: NodePort,
  genesis: Genesis,
  stateSync: boolean,
  ticker: Ticker,
  logger: Logger,
): Promise<string | null> {
  if (stateSync && (await core.store.identity()) === null) {
    const restored = await new StateSync(
      port,
      core.store,
      genesis,
      logger.child({ part: 'statesync' }),
      DEFAULT_STATE_SYNC_OPTIONS,
      ticker,
    ).run();
    core.metrics.stateSyncHeight.set(restored ?? 0);
  }
  await core.service.open(genesis);
  const refusal = versionRefusal(core.service.state, MIGRATIONS, NODE_VERSION);
  if (refusal !== null) logger.error(refusal);
  return refusal;
}

/** Where a node's chain_control.json would be: the path its log lines name. */
export const controlPathOf = (name: string) => `/sim/${name}/${CHAIN_CONTROL_FILE}`;

/**
 * Its chain core on its disk, through the node's own disk fault layer on its clock (a write
 * refused when full, slowed on the ticker, held until an fsync: a crash loses it; nothing blocks
 * the thread here, the priv-validator's synchronous writes are refused when full but take no
 * time); its clocks as under --fault-injection (main/timeControl.ts): its own, the network's
 * plus its skew (its ticker's offset too), and chain time, that plus the control's offset.
 */
export async function openSimCore(
  o: {
    readonly name: string;
    readonly disk: MemoryDisk;
    readonly faults: DiskFaults;
    readonly control: ChainControl;
    readonly scheduler: { readonly now: number };
  },
  ticker: Ticker,
  logger: Logger,
) {
  const diskLayer = new DiskLayer(ticker, () => undefined);
  diskLayer.set(o.faults);
  const control = new ChainControlInForce(() => o.scheduler.now);
  if (formatChainControl(o.control) !== formatChainControl(NO_CHAIN_CONTROL))
    applyChainControl(formatChainControl(o.control), control, controlPathOf(o.name), logger);
  const core = await openChainCore({
    home: `/sim/${o.name}`, // never written: the disk is in memory
    storage: o.disk,
    diskLayer,
    mempool: DEFAULT_MEMPOOL_OPTIONS,
    logger,
    now: control.chainClock,
    migrations: MIGRATIONS,
  });
  return { core, diskLayer, control };
}

/** As a halted chain-node: its blocks served to the peers still behind it while `up` (sync/block/haltLinger.ts). */
export function lingerForLaggards(
  r: { readonly core: ChainCore; readonly port: NodePort; readonly ticker: Ticker; readonly logger: Logger },
  sync: BlockSync,
  up: () => boolean,
) {
  return serveLaggards(r.core.service.state.height, {
    peers: () => (up() ? r.port.connectedPeers() : []),
    peerHeight: (p) => sync.peerHeight(p),
    ticker: r.ticker,
    logger: r.logger.child({ part: 'upgrade' }),
  });
}

/** Its signer and consensus driver, as main/node.ts builds them, paced and clocked by its chain control. */
export function simConsensus(
  who: SignerOf & {
    readonly blockTimeMs: number;
    readonly startGraceMs: number;
    readonly record: RecordEntry[] | null;
  },
  p: {
    readonly core: ChainCore;
    readonly diskLayer: DiskLayer;
    readonly control: ChainControlInForce;
    readonly port: NodePort;
    readonly sync: BlockSync;
    readonly ticker: Ticker;
    readonly logger: Logger;
    readonly guard: UpgradeGuard;
  },
) {
  const { core, control, logger } = p;
  const { checked, liar } = signersOf(who, core, p.diskLayer);
  const record = who.record;
  const driver = new ConsensusDriver(
    {
      ...SIM_DRIVER_OPTIONS,
      privateKey: who.privateKey,
      signer: checked ?? liar!.signer,
      equivocator: liar?.equivocator ?? null,
      blockTimeMs: who.blockTimeMs,
      startGraceMs: who.startGraceMs,
    },
    {
      service: core.service,
      network: p.port,
      sync: p.sync,
      metrics: core.metrics,
      logger,
      ticker: p.ticker,
      pace: control,
      chainClock: control.chainClock,
      haltsBefore: (state) => p.guard.haltsBefore(state),
      ...(record === null ? {} : { record: { write: (e: RecordEntry) => record.push(e) } }),
    },
  );
  return { driver, checked };
}
