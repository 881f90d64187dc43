/**
 * The parts of the node around its chain, started in order by the composition root (node.ts):
 * the validator's signer (the priv-validator, or the test-only Byzantine one behind its flag),
 * the chain opened (an empty store filled by state sync first when asked; a state of a protocol
 * version this build does not run refused with its exit code; the upgrade guard on every commit),
 * and the gossip of transactions with block sync and the snapshots served.
 */
import type { Logger } from '@chain-devnet/kit/log';
import {
  type Genesis,
  type MigrationRegistry,
  VERSION_REFUSED_EXIT_CODE,
  versionRefusal,
} from '../chain/index.js';
import type { ConsensusSigner } from '../consensus/signer.js';
import { faultyFiles } from '../disk/files.js';
import { byzantineValidator } from '../faults/byzantine.js';
import type { Equivocator } from '../faults/equivocator.js';
import { failPointOptions } from '../faults/failPoints.js';
import { splitPublisher } from '../faults/splitPublish.js';
import { openPrivValidator, PrivValidatorError } from '../home/privValidator.js';
import type { P2PNetwork } from '../p2p/network.js';
import type { ChainCore } from '../service/chainCore.js';
import { type BlockSync, DEFAULT_STATE_SYNC_OPTIONS, StateSync, startPeerServices } from '../sync/index.js';
import { StartupError } from '../util/startupError.js';
import { realTicker } from '../util/ticker.js';
import type { NodeConfig } from './config.js';
import { UpgradeGuard } from './upgradeGuard.js';

/** How this validator signs: its priv-validator, the Byzantine test signer, or nothing (no key). */
export async function openSigner(
  config: NodeConfig,
  genesis: Genesis,
  privateKey: Uint8Array | null,
  core: ChainCore,
  logger: Logger,
): Promise<{ signer: ConsensusSigner | null; equivocator: Equivocator | null }> {
  try {
    if (config.byzantine !== null) {
      const b = byzantineValidator(config.byzantine, genesis, privateKey, core.service);
      logger.warn('BYZANTINE TEST MODE: this validator signs two versions of every proposal and vote', {
        mode: config.byzantine,
      });
      return b;
    }
    if (privateKey === null) return { signer: null, equivocator: null };
    const signer = await openPrivValidator(
      config.home,
      privateKey,
      core.metrics,
      logger.child({ part: 'privval' }),
      {
        ...failPointOptions(config.failPoint, config.faultInjection, logger),
        health: core.health,
        // TEST ONLY: through the disk fault layer (--fault-injection); else straight to the disk.
        ...(core.diskLayer === null ? {} : { files: faultyFiles(core.diskLayer) }),
      },
    );
    return { signer, equivocator: null };
  } catch (e) {
    throw e instanceof PrivValidatorError ? new StartupError(e.message) : e;
  }
}

/**
 * The chain opened: an empty store filled from a verified snapshot first when the node joins by
 * state sync (a store with a chain goes on from its own height); the state's protocol version
 * checked; the upgrade guard watching every commit.
 */
export async function openChainState(
  config: NodeConfig,
  genesis: Genesis,
  core: ChainCore,
  network: P2PNetwork | null,
  build: { readonly migrations: MigrationRegistry; readonly nodeVersion: string },
  now: () => number,
  logger: Logger,
): Promise<UpgradeGuard> {
  const { store, metrics, service } = core;
  const synced = await store.stateSyncedFrom();
  if (config.stateSync && network !== null && (await store.identity()) === null) {
    const restored = await new StateSync(
      network,
      store,
      genesis,
      logger.child({ part: 'statesync' }),
      DEFAULT_STATE_SYNC_OPTIONS,
      realTicker(now),
    ).run();
    metrics.stateSyncHeight.set(restored ?? 0);
  } else if (synced !== null) metrics.stateSyncHeight.set(synced);
  await service.open(genesis);
  const refusal = versionRefusal(service.state, build.migrations, build.nodeVersion);
  if (refusal !== null) throw new StartupError(refusal, VERSION_REFUSED_EXIT_CODE);
  const guard = new UpgradeGuard(build.migrations, build.nodeVersion, logger.child({ part: 'upgrade' }));
  service.onCommit((_block, result) => guard.haltsBefore(result.state));
  return guard;
}

/** Transactions gossiped both ways, block sync and the snapshots served; the block sync. */
export async function startGossip(
  network: P2PNetwork,
  core: ChainCore,
  equivocator: Equivocator | null,
  logger: Logger,
): Promise<BlockSync> {
  if (equivocator !== null) network.armSplitPublish(splitPublisher(logger.child({ part: 'p2p' })));
  return startPeerServices(network, core.service, core.metrics, logger);
}
