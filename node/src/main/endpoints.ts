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
import { type ProbeResult, probePeer, serveProbe } from '../p2p/probe.js';
import { createRpcApp } from '../rpc/app.js';
import { type NetProbe, ProbeRefusal, type TestOnlyRoutes } from '../rpc/handlers/netProbe.js';
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
  testOnly: TestOnlyRoutes,
): Promise<number> {
  const rpcOptions = { ...DEFAULT_RPC_OPTIONS, maxBodyBytes: config.maxBodyBytes };
  const server = createRpcServer(
    createRpcApp(service, metrics, logger.child({ part: 'rpc' }), rpcOptions, testOnly),
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
  testOnly: TestOnlyRoutes,
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
  if (net.shaping !== null) {
    await serveProbe(network);
    testOnly.netProbe = linkProbe(network);
  }
  logger.info('p2p listening', { peer_id: network.peerId, addresses: network.multiaddrs() });
  return network;
}

/** How long a probe's exchange may take: 4 MiB at 1 Mbit/s and a long round trip. */
const PROBE_TIMEOUT_MS = 60_000;

/** POST /net/probe's probe (fault injection): the link to a connected peer, its errors as answers. */
function linkProbe(network: P2PNetwork): NetProbe {
  return async (peer, bytes) => {
    if (!network.connectedPeers().includes(peer))
      throw new ProbeRefusal(
        409,
        `not connected to peer ${peer}: GET /status's peers are the ones it can probe`,
      );
    let r: ProbeResult;
    try {
      r = await probePeer(network, peer, bytes, PROBE_TIMEOUT_MS);
    } catch (e) {
      throw new ProbeRefusal(504, `peer ${peer} did not answer the probe: ${(e as Error).message}`);
    }
    const ms = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
    return {
      peer,
      rtt_ms: ms(r.rttMs)!,
      bytes,
      up_ms: ms(r.upMs),
      up_bps: r.upBps,
      down_ms: ms(r.downMs),
      down_bps: r.downBps,
    };
  };
}
