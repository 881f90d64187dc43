/**
 * What a node gives its peers and takes from them beside consensus, over one NodePort: the
 * gossip of transactions both ways, block sync (served, and the BlockSync the driver catches up
 * with) and the snapshots served. The composition root starts it on libp2p (main/chainParts.ts);
 * the simulation on its own network, clock and randomness (sim/simNode.ts), so both run this code.
 */
import type { Logger } from '@chain-devnet/kit/log';
import type { Tx } from '../chain/index.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { NodePort } from '../p2p/network.js';
import { TOPIC_TXS } from '../p2p/protocol.js';
import type { ChainService } from '../service/chainService.js';
import { txsHandler, txsMessages } from '../service/txGossip.js';
import type { Ticker } from '../util/ticker.js';
import { BlockSync, DEFAULT_SYNC_TIMEOUTS } from './block/blockSync.js';
import { serveSnapshots } from './state/snapshotServer.js';

/** The edges the simulation replaces; absent: the wall clock and Math.random. */
export interface PeerServiceEdges {
  readonly ticker?: Ticker;
  readonly random?: () => number;
}

export async function startPeerServices(
  network: NodePort,
  service: ChainService,
  metrics: NodeMetrics,
  logger: Logger,
  edges: PeerServiceEdges = {},
): Promise<BlockSync> {
  const gossipTxs = (txs: readonly Tx[]) => {
    for (const message of txsMessages(txs)) void network.publish(TOPIC_TXS, message);
  };
  network.subscribe(
    TOPIC_TXS,
    txsHandler(service, gossipTxs, (verdict) => metrics.gossipMessages.inc({ topic: TOPIC_TXS, verdict })),
  );
  service.onTxsAdmitted(gossipTxs);
  const sync = new BlockSync(
    service,
    network,
    metrics,
    logger.child({ part: 'sync' }),
    DEFAULT_SYNC_TIMEOUTS,
    edges.ticker,
    edges.random,
  );
  await sync.serve();
  await serveSnapshots(service, network);
  return sync;
}
