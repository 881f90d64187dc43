/**
 * The parts of a simulated node that main/ builds for a real one, built here as it builds them:
 * its chain opened (by state sync first for a joiner, a protocol version it does not run
 * refused), its signer (the checked one, or a Byzantine validator's test-only parts), its RPC app
 * with the chain control's test-only route; and the headers its store holds.
 */
import type { RequestListener } from 'node:http';
import type { Logger } from '@chain-devnet/kit/log';
import { type BlockHeader, type Genesis, MIGRATIONS, versionRefusal } from '../chain/index.js';
import type { ConsensusDriver } from '../consensus/driver/driver.js';
import { DEFAULT_TIMEOUTS } from '../consensus/types.js';
import type { DiskLayer } from '../disk/layer.js';
import { byzantineValidator } from '../faults/byzantine.js';
import type { ChainControlInForce } from '../faults/chainControl.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import { wireTimeControl } from '../main/timeControl.js';
import type { NodePort } from '../p2p/network.js';
import { CheckedSigner, type PrivValidatorState } from '../privval/index.js';
import { createRpcApp } from '../rpc/app.js';
import type { TestOnlyRoutes } from '../rpc/handlers/netProbe.js';
import type { ChainCore } from '../service/chainCore.js';
import type { ChainStore } from '../store/chainStore.js';
import { DEFAULT_STATE_SYNC_OPTIONS, StateSync } from '../sync/index.js';
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
export function signersOf(o: SignerOf, core: ChainCore, diskLayer: DiskLayer) {
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
