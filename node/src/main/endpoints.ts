/**
 * The node's two listening edges, each a StartupError the operator can act on when its port is
 * taken: the RPC server (on the kit's HTTP edge; listening before the chain is loaded, so data
 * endpoints answer 503 meanwhile) and the p2p network (libp2p with the node's peer key).
 */
import type { Server } from 'node:http';
import { join } from 'node:path';
import { createRpcServer, DEFAULT_RPC_OPTIONS } from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import { netConditionsFault } from '../faults/netConditions.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import { P2PNetwork } from '../p2p/network.js';
import { loadOrCreatePeerKey } from '../p2p/peerKey.js';
import { createRpcApp } from '../rpc/app.js';
import type { ChainService } from '../service/chainService.js';
import { StartupError } from '../util/startupError.js';
import type { CloserStack } from './closers.js';
import type { NodeConfig } from './config.js';

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

/** The RPC listening (its closer on `parts`); the port it is bound to. */
export async function startRpc(
  config: NodeConfig,
  service: ChainService,
  metrics: NodeMetrics,
  logger: Logger,
  parts: CloserStack,
): Promise<number> {
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
  return port;
}

/** The p2p network started (its closer on `parts`), or null when the node runs without one. */
export async function startNetwork(
  config: NodeConfig,
  logger: Logger,
  nodeVersion: string,
  genesisHash: string,
  parts: CloserStack,
): Promise<P2PNetwork | null> {
  if (!config.p2p) return null;
  // Before the network starts: the conditions in force from its first connection on.
  const net = await netConditionsFault(config.home, config.faultInjection, logger);
  parts.defer('net conditions', net.stop);
  let network: P2PNetwork;
  try {
    network = await P2PNetwork.start({
      privateKey: await loadOrCreatePeerKey(join(config.home, 'p2p_key')),
      listenHost: config.p2pHost,
      listenPort: config.p2pPort,
      announce: config.p2pAnnounce,
      bootstrap: config.bootstrap,
      logger: logger.child({ part: 'p2p' }),
      nodeVersion,
      genesisHash,
      ...(net.shaping === null ? {} : { shaping: net.shaping }),
    });
  } catch (e) {
    const m = (e as Error).message;
    throw new StartupError(
      /EADDRINUSE/.test(m)
        ? `p2p port ${config.p2pPort} is already in use: pass --p2p-port`
        : `cannot start the p2p network: ${m}`,
    );
  }
  parts.defer('p2p', () => network.stop());
  logger.info('p2p listening', { peer_id: network.peerId, addresses: network.multiaddrs() });
  return network;
}
