/**
 * The node's composition root: builds every part once, in dependency order (the parts in
 * endpoints.ts and chainParts.ts), and pushes how to stop each on one stack of closers
 * (closers.ts) as it starts; stop() (or a failure half-way through
 * the start) unwinds that stack in reverse. The RPC listens before the chain state is loaded, so
 * the data endpoints answer 503 "Node not initialized" during that window, as specified. The
 * test-only parts (faults/) are reached only through the flags that enable them.
 */

import { type Logger, observedLogger } from '@chain-devnet/kit/log';
import { MIGRATIONS, type MigrationRegistry, type UpgradeHalt } from '../chain/index.js';
import { ConsensusDriver } from '../consensus/driver/driver.js';
import { DEFAULT_TIMEOUTS, START_GRACE_MS } from '../consensus/types.js';
import { blockedPeersFault } from '../faults/blockedPeers.js';
import { diskFaultLayer } from '../faults/diskFaults.js';
import { readGenesisFile } from '../home/genesisFile.js';
import { readKeyFile } from '../home/keyFile.js';
import { LogLineCount } from '../metrics/logLines.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { P2PNetwork } from '../p2p/network.js';
import type { TestOnlyRoutes } from '../rpc/handlers/netProbe.js';
import { type ChainCore, openChainCore } from '../service/chainCore.js';
import type { ChainService } from '../service/chainService.js';
import { isWriteFailed } from '../store/errors.js';
import { type BlockSync, serveLaggards } from '../sync/index.js';
import { NODE_VERSION } from '../util/nodeVersion.js';
import { realTicker } from '../util/ticker.js';
import { openChainState, openSigner, startGossip } from './chainParts.js';
import { CloserStack } from './closers.js';
import type { NodeConfig } from './config.js';
import { RecordFile } from './consensusRecord.js';
import { startNetwork, startRpc } from './endpoints.js';
import { openTimeControl, wireTimeControl } from './timeControl.js';
import type { UpgradeGuard } from './upgradeGuard.js';

export { StartupError } from '../util/startupError.js';

export interface RunningNode {
  readonly service: ChainService;
  readonly metrics: NodeMetrics;
  readonly network: P2PNetwork | null;
  /** The RPC's bound port (useful with port 0). */
  readonly port: number;
  /**
   * Settles when the node has halted at a plan's height it has no migration for (it signed
   * nothing there) and its connected peers have the blocks up to its height, which it serves
   * them meanwhile (bounded: sync/block/haltLinger.ts); the caller stops it and exits with
   * UPGRADE_HALT_EXIT_CODE. Never settles otherwise.
   */
  readonly halted: Promise<UpgradeHalt>;
  stop(): Promise<void>;
}

export async function startNode(
  config: NodeConfig,
  given: Logger,
  now: () => number = Date.now,
  build: { readonly migrations: MigrationRegistry; readonly nodeVersion: string } = {
    migrations: MIGRATIONS,
    nodeVersion: NODE_VERSION,
  },
): Promise<RunningNode> {
  const genesis = await readGenesisFile(config.genesisPath);
  const privateKey = config.keyPath === null ? null : await readKeyFile(config.keyPath);
  const parts = new CloserStack();
  // Its warnings and errors counted (chain_log_lines_total), those before the metrics exist too.
  const lines = new LogLineCount();
  const logger = observedLogger(given, lines.seen);
  // TEST ONLY under --fault-injection: the clocks skewed and offset by the chain control.
  const time = await openTimeControl(config, now, logger, parts);
  const core = await openCore(config, logger, time.chainClock, build, parts);
  lines.attach(core.metrics.logLines);
  parts.defer('store', () => core.store.close());
  try {
    const { service, metrics } = core;
    const { signer, equivocator } = await openSigner(config, genesis, privateKey, core, logger);
    // The test-only routes' parts, filled in when the network is up (fault injection only).
    const testOnly: TestOnlyRoutes = { netProbe: null, chainControl: null };
    const port = await startRpc(config, service, metrics, logger, parts, testOnly);
    const network = await startNetwork(config, logger, build.nodeVersion, genesis.hash, parts, testOnly);
    const guard = await openChainState(config, genesis, core, network, build, time.clock, logger);
    const sync = network === null ? null : await startGossip(network, core, equivocator, logger);
    const record = config.recordConsensus ? await RecordFile.open(config.home, logger) : null;
    const driver = new ConsensusDriver(
      {
        privateKey,
        signer,
        equivocator,
        blockTimeMs: config.blockTimeMs ?? genesis.state.params.blockTimeMs,
        timeouts: DEFAULT_TIMEOUTS,
        rebroadcastMs: 1000,
        maxClockDriftSec: 30,
        startGraceMs: START_GRACE_MS,
      },
      {
        service,
        network,
        sync,
        metrics,
        logger: logger.child({ part: 'consensus' }),
        ticker: realTicker(now),
        haltsBefore: (state) => guard.haltsBefore(state),
        ...(time.control === null ? {} : { pace: time.control, chainClock: time.chainClock }),
        ...(record === null ? {} : { record }),
      },
    );
    wireTimeControl(time, service, driver, testOnly, logger);
    // A node restarted at a plan's height it cannot apply halts again at once, before any sync.
    if (!guard.haltsBefore(service.state)) await driver.start();
    // Closed in reverse: the record's last lines are written once the driver has stopped.
    if (record !== null) parts.defer('consensus record', () => record.flush());
    parts.defer('consensus', () => driver.stop());
    const cleanup = setInterval(() => {
      service.expire().catch((e: unknown) => {
        // A write the disk refused is logged once by the disk's health, not every cleanup.
        if (!isWriteFailed(e)) logger.error('mempool cleanup failed', { error: e as Error });
      });
    }, config.mempoolCleanupMs);
    parts.defer('mempool cleanup', () => clearInterval(cleanup));
    if (network !== null)
      parts.defer(
        'blocked peers',
        await blockedPeersFault(config.home, network, config.faultInjection, logger),
      );
    return running(core, network, sync, guard, port, parts, now, logger);
  } catch (e) {
    await parts.close();
    throw e;
  }
}

/**
 * The node's core (chainCore.ts) over its disk: with --fault-injection through the disk fault
 * layer following <home>/disk_faults.json (faults/diskFaults.ts), else straight to the disk.
 */
async function openCore(
  config: NodeConfig,
  logger: Logger,
  now: () => number,
  build: { readonly migrations: MigrationRegistry; readonly nodeVersion: string },
  parts: CloserStack,
): Promise<ChainCore> {
  const disk = await diskFaultLayer(
    config.home,
    config.faultInjection,
    realTicker(now),
    logger.child({ part: 'disk' }),
  );
  parts.defer('disk faults', disk.stop);
  try {
    return await openChainCore({
      home: config.home,
      mempool: config.mempool,
      logger,
      now,
      migrations: build.migrations,
      nodeVersion: build.nodeVersion,
      diskLayer: disk.layer,
    });
  } catch (e) {
    await parts.close();
    throw e;
  }
}

/**
 * The running node: stop() unwinds the closers once; `halted` settles once a halt for an upgrade
 * has served the connected peers the blocks up to its height (bounded: sync/block/haltLinger.ts).
 */
function running(
  core: ChainCore,
  network: P2PNetwork | null,
  sync: BlockSync | null,
  guard: UpgradeGuard,
  port: number,
  parts: CloserStack,
  now: () => number,
  logger: Logger,
): RunningNode {
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      logger.info('stopping');
      await parts.close();
      logger.info('stopped');
    })();
    return stopping;
  };
  const halted = guard.halted.then(async (halt) => {
    if (sync !== null && network !== null && !stopping)
      await serveLaggards(core.service.state.height, {
        peers: () => (stopping ? [] : network.connectedPeers()),
        peerHeight: (p) => sync.peerHeight(p),
        ticker: realTicker(now, { unref: true }),
        logger: logger.child({ part: 'upgrade' }),
      });
    return halt;
  });
  return { service: core.service, metrics: core.metrics, network, port, halted, stop };
}
