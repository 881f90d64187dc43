/**
 * Block sync over the request/response protocol /chain/sync/1.0.0: serves status and ranges of
 * blocks with their commits from the store, and catches a node up that is behind (restarted,
 * late, partitioned): ask connected peers their height, fetch missing blocks in batches,
 * check each commit against the active set of its height, execute, store.
 */
import { BlockError, blockToJson } from '../chain/index.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { ChainService } from '../node/chainService.js';
import {
  commitToJson,
  decodeBlocksResponse,
  decodeJson,
  decodeSyncRequest,
  encodeJson,
  MAX_SYNC_BLOCKS,
} from '../p2p/messages.js';
import type { P2PNetwork } from '../p2p/network.js';
import { SYNC_PROTOCOL } from '../p2p/protocol.js';
import type { Logger } from '../util/logger.js';

/** A sync run still going after this long is reported, with the step it is at. */
const SLOW_RUN_MS = 10_000;

export class BlockSync {
  private running: Promise<number> | null = null;
  /** The step the current run is at, for the report of a slow run. */
  private step = 'idle';

  constructor(
    private readonly service: ChainService,
    private readonly network: P2PNetwork,
    private readonly metrics: NodeMetrics,
    private readonly logger: Logger,
  ) {}

  async serve(): Promise<void> {
    await this.network.serve(SYNC_PROTOCOL, async (request) => {
      const req = decodeSyncRequest(request);
      if (typeof req === 'string') return encodeJson({ error: req });
      if (!this.service.ready) return encodeJson({ error: 'not ready' });
      if (req.type === 'status') {
        const s = this.service.state;
        return encodeJson({ height: s.height, last_hash: s.lastBlockHash });
      }
      const to = Math.min(req.to, req.from + MAX_SYNC_BLOCKS - 1);
      const blocks = await this.service.blocksWithCommits(req.from, to);
      return encodeJson({
        blocks: blocks.map((b) => ({ block: blockToJson(b.block), commit: commitToJson(b.commit) })),
      });
    });
  }

  /**
   * Catches up with the highest connected peer; one run at a time. Resolves to the blocks applied.
   * `askPeers` limits the status round to that many connected peers picked at random: enough to
   * learn whether the network has moved on when many nodes ask at once (every node of a 21-node
   * network waiting out a stopped proposer), at a fraction of the requests.
   */
  catchUp(askPeers = Number.POSITIVE_INFINITY): Promise<number> {
    if (this.running !== null) return this.running;
    const started = Date.now();
    const watch = setInterval(
      () => this.logger.warn('sync run still going', { ms: Date.now() - started, step: this.step }),
      SLOW_RUN_MS,
    ).unref();
    this.running = this.run(askPeers).finally(() => {
      clearInterval(watch);
      this.running = null;
      this.step = 'idle';
      this.metrics.syncing.set(0);
    });
    return this.running;
  }

  get active(): boolean {
    return this.running !== null;
  }

  /**
   * Heights of connected peers (up to `askPeers` of them), as they answer. It resolves at the
   * first answer ahead of this node, without waiting for the rest: the slowest of 20 peers on a
   * loaded machine took up to the 3 s timeout, and a node that lost a height's messages waited
   * that long to fetch it. Otherwise it resolves when all have answered (or failed).
   */
  private peerHeights(askPeers: number): Promise<{ peer: string; height: number }[]> {
    const peers = randomPick(this.network.connectedPeers(), askPeers);
    const ours = this.service.state.height;
    const answers: { peer: string; height: number }[] = [];
    const sorted = () => [...answers].sort((a, b) => b.height - a.height);
    return new Promise((resolve) => {
      let pending = peers.length;
      if (pending === 0) resolve([]);
      for (const peer of peers) {
        void this.peerHeight(peer).then((height) => {
          pending--;
          if (height !== null) answers.push({ peer, height });
          if ((height !== null && height > ours) || pending === 0) resolve(sorted());
        });
      }
    });
  }

  private async peerHeight(peer: string): Promise<number | null> {
    try {
      const res = decodeJson(
        await this.network.request(peer, SYNC_PROTOCOL, encodeJson({ type: 'status' }), 3000),
      ) as { height?: unknown };
      return typeof res.height === 'number' ? res.height : null;
    } catch {
      return null;
    }
  }

  private async run(askPeers: number): Promise<number> {
    let applied = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      this.step = 'asking peers their height';
      const peers = await this.peerHeights(askPeers);
      const ours = this.service.state.height;
      const ahead = peers.filter((p) => p.height > ours);
      if (ahead.length === 0) return applied;
      this.metrics.syncing.set(1);
      this.logger.info('syncing', { from: ours + 1, to: ahead[0]!.height, peers: ahead.length });
      let fetched = 0;
      for (const { peer, height } of ahead) {
        try {
          fetched = await this.fetchFrom(peer, height);
          break;
        } catch (e) {
          this.logger.warn('sync from peer failed', { peer, error: (e as Error).message });
        }
      }
      applied += fetched;
      // One block fetched is a height whose messages were lost, and consensus is waiting to go
      // on; a longer fetch (a restart, a partition) may have let the network move on meanwhile,
      // so ask again. (A round where nobody is ahead waits for every peer asked.)
      if (fetched === 1) return applied;
    }
    return applied;
  }

  private async fetchFrom(peer: string, target: number): Promise<number> {
    let applied = 0;
    while (this.service.state.height < target) {
      const from = this.service.state.height + 1;
      const to = Math.min(target, from + MAX_SYNC_BLOCKS - 1);
      this.step = `fetching blocks ${from}-${to} from ${peer}`;
      const bytes = await this.network.request(
        peer,
        SYNC_PROTOCOL,
        encodeJson({ type: 'blocks', from, to }),
        15_000,
      );
      const blocks = decodeBlocksResponse(bytes);
      if (typeof blocks === 'string') throw new Error(`malformed sync response: ${blocks}`);
      if (blocks.length === 0) throw new Error(`peer had no block ${from}`);
      for (const { block, commit } of blocks) {
        this.step = `committing block ${block.header.height}`;
        try {
          if (await this.service.commitSynced(block, commit)) {
            applied++;
            this.metrics.syncedBlocks.inc();
          }
        } catch (e) {
          if (e instanceof BlockError)
            throw new Error(`block ${block.header.height} from ${peer} refused: ${e.message}`);
          throw e;
        }
      }
    }
    return applied;
  }
}

/** Up to `count` of `items`, picked at random (all of them, in order, when there are no more). */
function randomPick<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const pool = [...items];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}
