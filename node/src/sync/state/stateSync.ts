/**
 * State sync, the joiner's side (docs/PROTOCOL.md, "State sync"; docs/CONSENSUS.md, "State sync:
 * what a joiner trusts"): a node whose store is empty asks its peers for their snapshot offers and
 * tries them highest first, one peer's offer at a time. For an offer at h it fetches blocks h and
 * h+1 with their commits and checks them against the genesis before anything else (anchorProblem:
 * no chunk is asked for blocks that fail); then the chunks, each read into the content's hash and
 * state root as it arrives (snapshotRestore.ts), the whole offer within a deadline of a minimum
 * rate, so a slow peer holds the joiner for its allowance, not for hours; only a proven content is
 * built into a state, which must then pass the state's checks (restoredStateProblem). A peer that
 * fails any of it is scored down (PeerStanding) and the next offer is tried. Only a verified state
 * is written to the store, in one batch; block sync then fetches the heights after it. Every timer
 * and clock read goes through the ticker.
 */

import type { Logger } from '@chain-devnet/kit/log';
import { blockHash, fullStateDiff, type Genesis, maxEntriesAt, SnapshotError } from '../../chain/index.js';
import { decodeBlocksResponse, encodeJson } from '../../p2p/messages.js';
import type { SyncPort } from '../../p2p/network.js';
import { SNAPSHOT_PROTOCOL, SYNC_PROTOCOL } from '../../p2p/protocol.js';
import {
  decodeChunk,
  decodeOffers,
  encodeSnapshotRequest,
  type SnapshotOffer,
} from '../../p2p/snapshotMessages.js';
import type { ChainStore } from '../../store/chainStore.js';
import { realTicker, type Ticker } from '../../util/ticker.js';
import { PeerStanding } from '../peerStanding.js';
import { SnapshotVerifier, UnprovenSnapshot } from './snapshotRestore.js';
import {
  anchorProblem,
  restoredStateProblem,
  type SnapshotAnchor,
  type SnapshotBlocks,
} from './snapshotTrust.js';

export interface StateSyncOptions {
  /** Bound of an offers request. */
  readonly offersMs: number;
  /** Bound of one chunk request (256 KiB read from a file). */
  readonly chunkMs: number;
  /** Bound of the request for blocks h and h+1. */
  readonly blocksMs: number;
  /** How long to wait for a first peer in each round. */
  readonly waitPeersMs: number;
  /** Rounds of offers before falling back to block sync from genesis. */
  readonly rounds: number;
  /**
   * A whole offer's deadline is `offerGraceMs + size / minBytesPerSecond`, from its first chunk
   * request: a peer serving more slowly than that is cut off and scored down.
   */
  readonly offerGraceMs: number;
  readonly minBytesPerSecond: number;
}

export const DEFAULT_STATE_SYNC_OPTIONS: StateSyncOptions = {
  offersMs: 3000,
  chunkMs: 10_000,
  blocksMs: 8000,
  waitPeersMs: 30_000,
  rounds: 5,
  offerGraceMs: 10_000,
  minBytesPerSecond: 1024 * 1024,
};

/** A peer that cannot serve block h+1 yet (its newest snapshot is its head): no fault of its own. */
class NotYet extends Error {}

export class StateSync {
  readonly standing: PeerStanding;

  constructor(
    private readonly network: SyncPort,
    private readonly store: ChainStore,
    private readonly genesis: Genesis,
    private readonly logger: Logger,
    private readonly options: StateSyncOptions = DEFAULT_STATE_SYNC_OPTIONS,
    private readonly ticker: Ticker = realTicker(),
  ) {
    this.standing = new PeerStanding(() => ticker.now());
  }

  /** Restores a verified snapshot into the (empty) store: its height, or null when none could be. */
  async run(): Promise<number | null> {
    for (let round = 0; round < this.options.rounds; round++) {
      if (round > 0) await this.sleep(1000);
      await this.waitForPeers();
      for (const { peer, offer } of await this.offers()) {
        if (!this.standing.usable(peer)) continue;
        try {
          const anchor = await this.fetch(peer, offer);
          await this.store.initializeAt(
            { chainId: this.genesis.state.params.chainId, genesisHash: this.genesis.hash },
            anchor.block,
            anchor.commit,
            anchor.state,
            fullStateDiff(anchor.state),
          );
          this.standing.succeeded(peer);
          this.logger.info('state sync restored', { height: offer.height, hash: offer.hash, peer });
          return offer.height;
        } catch (e) {
          if (e instanceof NotYet) {
            this.logger.debug('state sync offer not servable yet', { peer, height: offer.height });
            continue;
          }
          const skippedMs = this.standing.failed(peer, (e as Error).message);
          this.logger.warn('state sync peer failed', {
            peer,
            height: offer.height,
            reason: (e as Error).message,
            skipped_ms: skippedMs,
          });
        }
      }
    }
    this.logger.warn('state sync found no verifiable snapshot: block sync from genesis');
    return null;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.ticker.schedule('statesync/sleep', ms, resolve));
  }

  private async waitForPeers(): Promise<void> {
    const until = this.ticker.now() + this.options.waitPeersMs;
    while (this.network.connectedPeers().length === 0 && this.ticker.now() < until) await this.sleep(200);
  }

  /** Every usable peer's offers, highest height first. */
  private async offers(): Promise<{ peer: string; offer: SnapshotOffer }[]> {
    const peers = this.network.connectedPeers().filter((p) => this.standing.usable(p));
    const answers = await Promise.all(
      peers.map(async (peer) => {
        try {
          const bytes = await this.network.request(
            peer,
            SNAPSHOT_PROTOCOL,
            encodeSnapshotRequest({ type: 'offers' }),
            this.options.offersMs,
          );
          const offers = decodeOffers(bytes);
          if (typeof offers === 'string') throw new Error(`malformed offers: ${offers}`);
          return offers.map((offer) => ({ peer, offer }));
        } catch (e) {
          this.standing.failed(peer, `offers: ${(e as Error).message}`);
          return [];
        }
      }),
    );
    return answers.flat().sort((a, b) => b.offer.height - a.offer.height);
  }

  /** Blocks h and h+1 with their commits, checked against the genesis: before any chunk is asked for. */
  private async anchorBlocks(peer: string, h: number): Promise<SnapshotBlocks> {
    const blocks = decodeBlocksResponse(
      await this.network.request(
        peer,
        SYNC_PROTOCOL,
        encodeJson({ type: 'blocks', from: h, to: h + 1 }),
        this.options.blocksMs,
      ),
    );
    if (typeof blocks === 'string') throw new Error(`malformed blocks: ${blocks}`);
    const [atH, next] = blocks;
    if (atH === undefined || atH.block.header.height !== h)
      throw new Error(`offered ${h} without block ${h}`);
    if (next === undefined) throw new NotYet();
    const anchor = { block: atH.block, commit: atH.commit, next: next.block, nextCommit: next.commit };
    const problem = anchorProblem(this.genesis, h, anchor);
    if (problem !== null) throw new Error(`snapshot ${h} not proven: ${problem}`);
    return anchor;
  }

  /** An offer proven whole: throws unless all of it holds (snapshotRestore.ts, snapshotTrust.ts). */
  private async fetch(peer: string, offer: SnapshotOffer): Promise<SnapshotAnchor> {
    const h = offer.height;
    const blocks = await this.anchorBlocks(peer, h);
    const verifier = new SnapshotVerifier(
      {
        height: h,
        hash: offer.hash,
        size: offer.size,
        chainId: this.genesis.state.params.chainId,
        lastBlockHash: blockHash(blocks.block.header),
        stateRoot: blocks.block.header.stateRoot,
        maxEntries: maxEntriesAt(this.genesis.state, h),
      },
      this.ticker,
    );
    try {
      await this.download(peer, offer, (chunk, last) => verifier.push(chunk, last));
      const anchor = { ...blocks, state: await verifier.state(), root: verifier.root };
      const problem = restoredStateProblem(this.genesis, anchor);
      if (problem !== null) throw new Error(`snapshot ${h} not proven: ${problem}`);
      return anchor;
    } catch (e) {
      if (e instanceof UnprovenSnapshot) throw new Error(`snapshot ${h} not proven: ${e.message}`);
      if (e instanceof SnapshotError) throw new Error(`snapshot ${h} refused: ${e.message}`);
      throw e;
    }
  }

  /**
   * Every chunk of the offer from `peer`, in order, each handed to `take`, within the offer's
   * deadline (a minimum rate): each request may take what is left of it, at most chunkMs. Only the
   * time spent waiting for the peer counts: the joiner's own work on a chunk is not the peer's.
   */
  private async download(
    peer: string,
    offer: SnapshotOffer,
    take: (chunk: Uint8Array, last: boolean) => Promise<void>,
  ): Promise<void> {
    const { offerGraceMs, minBytesPerSecond, chunkMs } = this.options;
    const allowanceMs = offerGraceMs + (offer.size * 1000) / minBytesPerSecond;
    let waitedMs = 0;
    let received = 0;
    const slow = () =>
      new Error(
        `slower than ${minBytesPerSecond} bytes/s: ${received} of ${offer.size} bytes in ${Math.round(waitedMs)} ms ` +
          `(an offer of ${offer.size} bytes may take ${Math.round(allowanceMs)} ms)`,
      );
    for (let i = 0; i < offer.chunks; i++) {
      const leftMs = allowanceMs - waitedMs;
      if (leftMs <= 0) throw slow();
      const bound = Math.min(chunkMs, Math.ceil(leftMs));
      const asked = this.ticker.now();
      let answer: Uint8Array;
      try {
        answer = await this.network.request(
          peer,
          SNAPSHOT_PROTOCOL,
          encodeSnapshotRequest({ type: 'chunk', height: offer.height, index: i }),
          bound,
        );
      } catch (e) {
        const tookMs = this.ticker.now() - asked;
        waitedMs += tookMs;
        // Its whole bound, which was what was left of the offer's deadline: the peer is too slow.
        if (bound < chunkMs && tookMs >= bound) throw slow();
        throw e;
      }
      waitedMs += this.ticker.now() - asked;
      const chunk = decodeChunk(answer, offer, i);
      if (typeof chunk === 'string') throw new Error(`chunk ${i} of ${offer.height}: ${chunk}`);
      received += chunk.length;
      await take(chunk, i === offer.chunks - 1);
    }
  }
}
