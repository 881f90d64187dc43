/**
 * The node's composition root: builds every part once, in dependency order, and stops them in
 * reverse. The RPC listens before the chain state is loaded, so the data endpoints answer
 * 503 "Node not initialized" during that window, as specified.
 */

import type { Server } from 'node:http';
import { join } from 'node:path';
import { type Genesis, loadGenesis, type MigrationRegistry, type Tx } from '../chain/index.js';
import { ConsensusDriver } from '../consensus/driver.js';
import { type ByzantineMode, Equivocator, UncheckedSigner } from '../consensus/equivocator.js';
import type { ConsensusSigner } from '../consensus/signer.js';
import { BlockSync } from '../consensus/sync.js';
import { realTicker } from '../consensus/ticker.js';
import { DEFAULT_TIMEOUTS } from '../consensus/types.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import { P2PNetwork } from '../p2p/network.js';
import { loadOrCreatePeerKey } from '../p2p/peerKey.js';
import { TOPIC_TXS } from '../p2p/protocol.js';
import { createRpcApp, DEFAULT_RPC_OPTIONS } from '../rpc/app.js';
import { createRpcServer } from '../rpc/server.js';
import { JsonFileError, readJsonFile } from '../util/jsonFile.js';
import type { Logger } from '../util/logger.js';
import { BLOCKED_PEERS_FILE, noteIgnoredBlockedPeers, watchBlockedPeers } from './blockedPeers.js';
import { openChainCore } from './chainCore.js';
import type { ChainService } from './chainService.js';
import type { NodeConfig } from './config.js';
import { readKeyFile } from './keyFile.js';
import { openPrivValidator, PrivValidatorError, type PrivValidatorOptions } from './privValidator.js';
import { txsHandler, txsMessages } from './txGossip.js';

/** A failure to start that the operator can fix: the message says how. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export interface RunningNode {
  readonly service: ChainService;
  readonly metrics: NodeMetrics;
  readonly network: P2PNetwork | null;
  /** The RPC's bound port (useful with port 0). */
  readonly port: number;
  stop(): Promise<void>;
}

export async function readGenesisFile(path: string): Promise<Genesis> {
  let json: unknown;
  try {
    json = await readJsonFile(path);
  } catch (e) {
    if (e instanceof JsonFileError) throw new StartupError(`genesis file ${e.message}`);
    throw e;
  }
  if (json === undefined)
    throw new StartupError(
      `cannot read genesis file ${path} (ENOENT): write one with \`chain-node init --home DIR\` or pass --genesis FILE`,
    );
  const loaded = loadGenesis(json);
  if (!loaded.ok)
    throw new StartupError(`genesis file ${path} is invalid:\n  - ${loaded.problems.join('\n  - ')}`);
  return loaded.genesis;
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
  migrations: MigrationRegistry = [],
): Promise<RunningNode> {
  const genesis = await readGenesisFile(config.genesisPath);
  const privateKey = config.keyPath === null ? null : await readKeyFile(config.keyPath);
  const { store, metrics, service } = await openChainCore({
    home: config.home,
    mempool: config.mempool,
    logger,
    now,
    migrations,
  });

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
        failPointOptions(config, logger),
      );
  } catch (e) {
    await store.close();
    throw e instanceof PrivValidatorError ? new StartupError(e.message) : e;
  }

  const rpcOptions = { ...DEFAULT_RPC_OPTIONS, maxBodyBytes: config.maxBodyBytes };
  const server = createRpcServer(
    createRpcApp(service, metrics, logger.child({ part: 'rpc' }), rpcOptions),
    rpcOptions,
  );
  let port: number;
  try {
    port = await listen(server, config.port, config.host);
    logger.info('RPC listening', { url: `http://${config.host}:${port}` });
    await service.open(genesis);
  } catch (e) {
    server.close();
    await store.close();
    throw e;
  }

  const blockTimeMs = config.blockTimeMs ?? genesis.state.params.blockTimeMs;
  let network: P2PNetwork | null = null;
  let sync: BlockSync | null = null;
  if (config.p2p) {
    try {
      network = await P2PNetwork.start({
        privateKey: await loadOrCreatePeerKey(join(config.home, 'p2p_key')),
        listenHost: config.p2pHost,
        listenPort: config.p2pPort,
        announce: config.p2pAnnounce,
        bootstrap: config.bootstrap,
        logger: logger.child({ part: 'p2p' }),
      });
    } catch (e) {
      server.close();
      await store.close();
      const m = (e as Error).message;
      throw new StartupError(
        /EADDRINUSE/.test(m)
          ? `p2p port ${config.p2pPort} is already in use: pass --p2p-port`
          : `cannot start the p2p network: ${m}`,
      );
    }
    logger.info('p2p listening', { peer_id: network.peerId, addresses: network.multiaddrs() });
    const net = network;
    const gossipTxs = (txs: readonly Tx[]) => {
      for (const message of txsMessages(txs)) void net.publish(TOPIC_TXS, message);
    };
    net.subscribe(
      TOPIC_TXS,
      txsHandler(service, gossipTxs, (verdict) => metrics.gossipMessages.inc({ topic: TOPIC_TXS, verdict })),
    );
    service.onTxsAdmitted(gossipTxs);
    sync = new BlockSync(service, network, metrics, logger.child({ part: 'sync' }));
    await sync.serve();
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
    },
    { service, network, sync, metrics, logger: logger.child({ part: 'consensus' }), ticker: realTicker(now) },
  );
  await driver.start();
  const cleanup = setInterval(() => {
    service.expire().catch((e: unknown) => logger.error('mempool cleanup failed', { error: e as Error }));
  }, config.mempoolCleanupMs);
  const blockedPeers = join(config.home, BLOCKED_PEERS_FILE);
  let blocklist: NodeJS.Timeout | null = null;
  if (network !== null && config.faultInjection) blocklist = watchBlockedPeers(blockedPeers, network, logger);
  else if (network !== null) await noteIgnoredBlockedPeers(blockedPeers, logger);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      logger.info('stopping');
      clearInterval(cleanup);
      if (blocklist) clearInterval(blocklist);
      await driver.stop();
      await network?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
      logger.info('stopped');
    })();
    return stopping;
  };
  return { service, metrics, network, port, stop };
}

/** TEST ONLY: the priv-validator's fail point (--fail-point), honoured only with --fault-injection. */
function failPointOptions(config: NodeConfig, logger: Logger): PrivValidatorOptions {
  if (config.failPoint === null) return {};
  if (!config.faultInjection)
    throw new StartupError(`--fail-point ${config.failPoint} is fault injection: it needs --fault-injection`);
  logger.warn('FAIL POINT ARMED: this node kills itself (SIGKILL) at it', { fail_point: config.failPoint });
  return { afterLockRecorded: () => process.kill(process.pid, 'SIGKILL') };
}

/**
 * TEST ONLY: the signer and equivocator of a Byzantine validator (consensus/equivocator.ts). Only
 * on a devnet genesis, and only for a validator: it exists to show that honest nodes stay safe.
 */
function byzantineValidator(
  mode: ByzantineMode,
  genesis: Genesis,
  privateKey: Uint8Array | null,
  service: ChainService,
): { signer: ConsensusSigner; equivocator: Equivocator } {
  if (genesis.network !== 'devnet')
    throw new StartupError(
      `--byzantine ${mode} is a test-only mode for devnets; refused on a ${genesis.network} genesis`,
    );
  if (privateKey === null) throw new StartupError(`--byzantine ${mode} needs a validator key (--key)`);
  return {
    signer: new UncheckedSigner(privateKey),
    equivocator: new Equivocator(
      privateKey,
      (round, timestamp) => service.buildProposal(privateKey, round, timestamp).block,
    ),
  };
}
