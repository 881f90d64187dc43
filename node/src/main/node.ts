/**
 * The node's composition root: builds every part once, in dependency order, and pushes how to stop
 * each on one stack of closers (closers.ts) as it starts; stop() (or a failure half-way through
 * the start) unwinds that stack in reverse. The RPC listens before the chain state is loaded, so
 * the data endpoints answer 503 "Node not initialized" during that window, as specified. The
 * test-only parts (faults/) are reached only through the flags that enable them.
 */

import type { Server } from 'node:http';
import { join } from 'node:path';
import { createRpcServer, DEFAULT_RPC_OPTIONS } from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import {
  MIGRATIONS,
  type MigrationRegistry,
  type Tx,
  type UpgradeHalt,
  VERSION_REFUSED_EXIT_CODE,
  versionRefusal,
} from '../chain/index.js';
import { ConsensusDriver } from '../consensus/driver/driver.js';
import type { ConsensusSigner } from '../consensus/signer.js';
import { DEFAULT_TIMEOUTS, START_GRACE_MS } from '../consensus/types.js';
import { blockedPeersFault } from '../faults/blockedPeers.js';
import { byzantineValidator } from '../faults/byzantine.js';
import type { Equivocator } from '../faults/equivocator.js';
import { failPointOptions } from '../faults/failPoints.js';
import { splitPublisher } from '../faults/splitPublish.js';
import { readGenesisFile } from '../home/genesisFile.js';
import { readKeyFile } from '../home/keyFile.js';
import { openPrivValidator, PrivValidatorError } from '../home/privValidator.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import { P2PNetwork } from '../p2p/network.js';
import { loadOrCreatePeerKey } from '../p2p/peerKey.js';
import { TOPIC_TXS } from '../p2p/protocol.js';
import { createRpcApp } from '../rpc/app.js';
import { openChainCore } from '../service/chainCore.js';
import type { ChainService } from '../service/chainService.js';
import { txsHandler, txsMessages } from '../service/txGossip.js';
import {
  BlockSync,
  DEFAULT_STATE_SYNC_OPTIONS,
  StateSync,
  serveLaggards,
  serveSnapshots,
} from '../sync/index.js';
import { NODE_VERSION } from '../util/nodeVersion.js';
import { StartupError } from '../util/startupError.js';
import { realTicker } from '../util/ticker.js';
import { CloserStack } from './closers.js';
import type { NodeConfig } from './config.js';
import { UpgradeGuard } from './upgradeGuard.js';

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

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new StartupError(
          e.code === 'EADDRINUSE'
            ? `RPC port ${port} on ${host} is already in use: stop what holds it or pass --port`
            : `cannot listen on ${host}:${port}: ${e.message}`,
        ),
      ),
    );
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

export async function startNode(
  config: NodeConfig,
  logger: Logger,
  now: () => number = Date.now,
  build: { readonly migrations: MigrationRegistry; readonly nodeVersion: string } = {
    migrations: MIGRATIONS,
    nodeVersion: NODE_VERSION,
  },
): Promise<RunningNode> {
  const { migrations, nodeVersion } = build;
  const genesis = await readGenesisFile(config.genesisPath);
  const privateKey = config.keyPath === null ? null : await readKeyFile(config.keyPath);
  const parts = new CloserStack();
  const { store, metrics, service } = await openChainCore({
    home: config.home,
    mempool: config.mempool,
    logger,
    now,
    migrations,
    nodeVersion,
  });
  parts.defer('store', () => store.close());
  try {
    let signer: ConsensusSigner | null = null;
    let equivocator: Equivocator | null = null;
    try {
      if (config.byzantine !== null) {
        ({ signer, equivocator } = byzantineValidator(config.byzantine, genesis, privateKey, service));
        logger.warn('BYZANTINE TEST MODE: this validator signs two versions of every proposal and vote', {
          mode: config.byzantine,
        });
      } else if (privateKey !== null)
        signer = await openPrivValidator(
          config.home,
          privateKey,
          metrics,
          logger.child({ part: 'privval' }),
          failPointOptions(config.failPoint, config.faultInjection, logger),
        );
    } catch (e) {
      throw e instanceof PrivValidatorError ? new StartupError(e.message) : e;
    }

    const rpcOptions = { ...DEFAULT_RPC_OPTIONS, maxBodyBytes: config.maxBodyBytes };
    const server = createRpcServer(
      createRpcApp(service, metrics, logger.child({ part: 'rpc' }), rpcOptions),
      rpcOptions,
    );
    const port = await listen(server, config.port, config.host);
    parts.defer(
      'rpc',
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    logger.info('RPC listening', { url: `http://${config.host}:${port}` });
    let network: P2PNetwork | null = null;
    if (config.p2p) {
      network = await startNetwork(config, logger, nodeVersion, genesis.hash);
      const net = network;
      parts.defer('p2p', () => net.stop());
      logger.info('p2p listening', { peer_id: network.peerId, addresses: network.multiaddrs() });
    }
    // State sync fills an empty store from a verified snapshot before the chain is opened; a store
    // with a chain already goes on from its own height.
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
    const refusal = versionRefusal(service.state, migrations, nodeVersion);
    if (refusal !== null) throw new StartupError(refusal, VERSION_REFUSED_EXIT_CODE);
    const guard = new UpgradeGuard(migrations, nodeVersion, logger.child({ part: 'upgrade' }));
    service.onCommit((_block, result) => guard.haltsBefore(result.state));

    const blockTimeMs = config.blockTimeMs ?? genesis.state.params.blockTimeMs;
    let sync: BlockSync | null = null;
    if (network !== null) {
      const net = network;
      if (equivocator !== null) network.armSplitPublish(splitPublisher(logger.child({ part: 'p2p' })));
      const gossipTxs = (txs: readonly Tx[]) => {
        for (const message of txsMessages(txs)) void net.publish(TOPIC_TXS, message);
      };
      net.subscribe(
        TOPIC_TXS,
        txsHandler(service, gossipTxs, (verdict) =>
          metrics.gossipMessages.inc({ topic: TOPIC_TXS, verdict }),
        ),
      );
      service.onTxsAdmitted(gossipTxs);
      sync = new BlockSync(service, network, metrics, logger.child({ part: 'sync' }));
      await sync.serve();
      await serveSnapshots(service, network);
    }
    const driver = new ConsensusDriver(
      {
        privateKey,
        signer,
        equivocator,
        blockTimeMs,
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
      },
    );
    // A node restarted at a plan's height it cannot apply halts again at once, before any sync.
    if (!guard.haltsBefore(service.state)) await driver.start();
    parts.defer('consensus', () => driver.stop());
    const cleanup = setInterval(() => {
      service.expire().catch((e: unknown) => logger.error('mempool cleanup failed', { error: e as Error }));
    }, config.mempoolCleanupMs);
    parts.defer('mempool cleanup', () => clearInterval(cleanup));
    if (network !== null)
      parts.defer(
        'blocked peers',
        await blockedPeersFault(config.home, network, config.faultInjection, logger),
      );

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
      if (sync !== null && network !== null && !stopping) {
        const net = network;
        const syncing = sync;
        await serveLaggards(service.state.height, {
          peers: () => (stopping ? [] : net.connectedPeers()),
          peerHeight: (p) => syncing.peerHeight(p),
          ticker: realTicker(now, { unref: true }),
          logger: logger.child({ part: 'upgrade' }),
        });
      }
      return halt;
    });
    return { service, metrics, network, port, halted, stop };
  } catch (e) {
    await parts.close();
    throw e;
  }
}

async function startNetwork(
  config: NodeConfig,
  logger: Logger,
  nodeVersion: string,
  genesisHash: string,
): Promise<P2PNetwork> {
  try {
    return await P2PNetwork.start({
      privateKey: await loadOrCreatePeerKey(join(config.home, 'p2p_key')),
      listenHost: config.p2pHost,
      listenPort: config.p2pPort,
      announce: config.p2pAnnounce,
      bootstrap: config.bootstrap,
      logger: logger.child({ part: 'p2p' }),
      nodeVersion,
      genesisHash,
    });
  } catch (e) {
    const m = (e as Error).message;
    throw new StartupError(
      /EADDRINUSE/.test(m)
        ? `p2p port ${config.p2pPort} is already in use: pass --p2p-port`
        : `cannot start the p2p network: ${m}`,
    );
  }
}
