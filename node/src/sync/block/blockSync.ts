/**
 * Block sync over the request/response protocol /chain/sync/1.0.0: serves status and ranges of
 * blocks with their commits from the store, and catches a node up that is behind (restarted,
 * late, partitioned): ask connected peers their height, fetch missing blocks in batches from the
 * highest that answered, check each commit against the active set of its height, execute, store.
 * Every request is bounded; a peer that fails one (no answer in time, a malformed answer, a height
 * it claimed and cannot serve, a block or commit refused) is left for the next candidate and
 * scored down (PeerStanding), so later runs skip it for a while.
 */

import type { Logger } from '@chain-devnet/kit/log';
import { BlockError, blockToJson } from '../../chain/index.js';
import type { NodeMetrics } from '../../metrics/metrics.js';
import {
  commitToJson,
  decodeBlocksResponse,
  decodeJson,
  decodeSyncRequest,
  encodeJson,
  MAX_SYNC_BLOCKS,
} from '../../p2p/messages.js';
import type { SyncPort } from '../../p2p/network.js';
import { SYNC_PROTOCOL } from '../../p2p/protocol.js';
import type { ChainService } from '../../service/chainService.js';
import { isWriteFailed } from '../../store/errors.js';
import { realTicker, type Ticker } from '../../util/ticker.js';
import { PeerStanding } from '../peerStanding.js';
import { HeightPoll } from './heightPoll.js';

/** A sync run still going after this long is reported, with the step it is at. */
const SLOW_RUN_MS = 10_000;

export interface SyncTimeouts {
  /** Bound of a status request. */
  readonly statusMs: number;
  /** Bound of a request for up to MAX_SYNC_BLOCKS blocks (an honest peer reads them from its store). */
  readonly blocksMs: number;
}

export const DEFAULT_SYNC_TIMEOUTS: SyncTimeouts = { statusMs: 3000, blocksMs: 8000 };

export class BlockSync {
  private running: Promise<number> | null = null;
  /** The step the current run is at, for the report of a slow run. */
  private step = 'idle';
  /** Peers that failed a request, skipped for a while. */
  readonly standing: PeerStanding;

  constructor(
    private readonly service: ChainService,
    private readonly network: SyncPort,
    private readonly metrics: NodeMetrics,
    private readonly logger: Logger,
    private readonly timeouts: SyncTimeouts = DEFAULT_SYNC_TIMEOUTS,
    /** Its clock and the slow-run watch; the watch does not keep the process alive. */
    private readonly ticker: Ticker = realTicker(Date.now, { unref: true }),
    /** Which peers a status round asks when not all (the simulation's is drawn from its seed). */
    private readonly random: () => number = Math.random,
  ) {
    this.standing = new PeerStanding(() => ticker.now());
  }

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
    const started = this.ticker.now();
    const stopWatch = this.ticker.every(SLOW_RUN_MS, () =>
      this.logger.warn('sync run still going', { ms: this.ticker.now() - started, step: this.step }),
    );
    this.running = this.run(askPeers).finally(() => {
      stopWatch();
      this.running = null;
      this.step = 'idle';
      this.metrics.syncing.set(0);
    });
    return this.running;
  }

  get active(): boolean {
    return this.running !== null;
  }

  /** Scores `peer` down for a failed request and logs it. */
  private failed(peer: string, reason: string): void {
    const skippedMs = this.standing.failed(peer, reason);
    this.logger.warn('sync peer failed', { peer, reason, skipped_ms: skippedMs });
  }

  /**
   * A peer's height, or null: an answer without one (a peer not ready) costs it nothing; no answer
   * in time, or a malformed one, scores it down.
   */
  async peerHeight(peer: string): Promise<number | null> {
    try {
      const res = decodeJson(
        await this.network.request(
          peer,
          SYNC_PROTOCOL,
          encodeJson({ type: 'status' }),
          this.timeouts.statusMs,
        ),
      ) as { height?: unknown; error?: unknown };
      if (Number.isSafeInteger(res.height) && (res.height as number) >= 0) return res.height as number;
      if (typeof res.error !== 'string') this.failed(peer, 'malformed status answer');
      return null;
    } catch (e) {
      this.failed(peer, `status: ${(e as Error).message}`);
      return null;
    }
  }

  private async run(askPeers: number): Promise<number> {
    let applied = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      this.step = 'asking peers their height';
      // Peers in a backoff are not asked: a liar is skipped by the runs after the one it failed.
      const usable = this.network.connectedPeers().filter((p) => this.standing.usable(p));
      const poll = new HeightPoll(randomPick(usable, askPeers, this.random), (p) => this.peerHeight(p));
      let fetched = 0;
      let synced = false;
      for (;;) {
        const candidate = await poll.next(this.service.state.height);
        if (candidate === null) break;
        const { peer, height } = candidate;
        this.metrics.syncing.set(1);
        this.logger.info('syncing', { from: this.service.state.height + 1, to: height, peer });
        const before = this.service.state.height;
        try {
          fetched += await this.fetchFrom(peer, height);
          this.standing.succeeded(peer);
          synced = true;
          break;
        } catch (e) {
          // This node's own disk refused the write: no fault of the peer's; the run ends.
          if (isWriteFailed(e)) throw e;
          fetched += Math.max(0, this.service.state.height - before);
          this.failed(peer, (e as Error).message);
        }
      }
      applied += fetched;
      // Nobody ahead (or nobody that could serve what it claimed): done for now.
      if (!synced && fetched === 0) return applied;
      // One block fetched is a height whose messages were lost, and consensus is waiting to go
      // on; a longer fetch (a restart, a partition) may have let the network move on meanwhile,
      // so ask again. (A round where nobody is ahead waits for every peer asked.)
      if (fetched === 1) return applied;
    }
    return applied;
  }

  /** Fetches and commits blocks from `peer` up to `target`; throws when it cannot serve them. */
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
        this.timeouts.blocksMs,
      );
      const blocks = decodeBlocksResponse(bytes);
      if (typeof blocks === 'string') throw new Error(`malformed sync response: ${blocks}`);
      if (blocks.length === 0) throw new Error(`claimed height ${target} but had no block ${from}`);
      for (const { block, commit } of blocks) {
        this.step = `committing block ${block.header.height}`;
        try {
          if (await this.service.commitSynced(block, commit)) {
            applied++;
            this.metrics.syncedBlocks.inc();
          }
        } catch (e) {
          if (e instanceof BlockError)
            throw new Error(`block ${block.header.height} refused (${e.code}): ${e.message}`);
          throw e;
        }
      }
      // Blocks of other heights than asked move nothing: without this the same request repeats.
      if (this.service.state.height < from) throw new Error(`served no block ${from}`);
    }
    return applied;
  }
}

/** Up to `count` of `items`, picked at random (all of them, in order, when there are no more). */
function randomPick<T>(items: readonly T[], count: number, random: () => number): T[] {
  if (items.length <= count) return [...items];
  const pool = [...items];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}
