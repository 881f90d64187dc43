/**
 * State sync, the joiner's side (docs/PROTOCOL.md, "Snapshot protocol"; docs/CONSENSUS.md, "State
 * sync: what a joiner trusts"): a node whose store is empty asks its peers for their snapshot
 * offers, takes the highest, fetches blocks h and h+1 with their commits over block sync, then
 * the snapshot's chunks, and checks everything before it writes anything: the sizes against the
 * offer, the content's SHA-256 against the offer's hash, and the restored state against block h
 * and the commit of block h+1 (snapshotTrust.ts). A peer that fails any of it is scored down
 * (PeerStanding) and the next offer is tried. Only a verified state is written to the store, in
 * one batch; block sync then fetches the heights after it.
 */
import { decodeSnapshot, fullStateDiff, type Genesis, SnapshotError } from '../chain/index.js';
import { decodeBlocksResponse, encodeJson } from '../p2p/messages.js';
import type { P2PNetwork } from '../p2p/network.js';
import { SNAPSHOT_PROTOCOL, SYNC_PROTOCOL } from '../p2p/protocol.js';
import {
  decodeChunk,
  decodeOffers,
  encodeSnapshotRequest,
  SNAPSHOT_CHUNK_BYTES,
  type SnapshotOffer,
} from '../p2p/snapshotMessages.js';
import type { ChainStore } from '../store/chainStore.js';
import type { Logger } from '../util/logger.js';
import { PeerStanding } from './peerStanding.js';
import { type SnapshotAnchor, snapshotTrustProblem } from './snapshotTrust.js';

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
}

export const DEFAULT_STATE_SYNC_OPTIONS: StateSyncOptions = {
  offersMs: 3000,
  chunkMs: 10_000,
  blocksMs: 8000,
  waitPeersMs: 30_000,
  rounds: 5,
};

/** A peer that cannot serve block h+1 yet (its newest snapshot is its head): no fault of its own. */
class NotYet extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class StateSync {
  readonly standing = new PeerStanding();

  constructor(
    private readonly network: P2PNetwork,
    private readonly store: ChainStore,
    private readonly genesis: Genesis,
    private readonly logger: Logger,
    private readonly options: StateSyncOptions = DEFAULT_STATE_SYNC_OPTIONS,
  ) {}

  /** Restores a verified snapshot into the (empty) store: its height, or null when none could be. */
  async run(): Promise<number | null> {
    for (let round = 0; round < this.options.rounds; round++) {
      if (round > 0) await sleep(1000);
      await this.waitForPeers();
      const candidates = await this.offers();
      for (const { peer, offer } of candidates) {
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

  private async waitForPeers(): Promise<void> {
    const until = Date.now() + this.options.waitPeersMs;
    while (this.network.connectedPeers().length === 0 && Date.now() < until) await sleep(200);
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

  /** Blocks h and h+1, then the chunks; throws unless all of it is proven (snapshotTrust.ts). */
  private async fetch(peer: string, offer: SnapshotOffer): Promise<SnapshotAnchor> {
    const h = offer.height;
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
    const file = new Uint8Array(offer.size);
    for (let i = 0; i < offer.chunks; i++) {
      const chunk = decodeChunk(
        await this.network.request(
          peer,
          SNAPSHOT_PROTOCOL,
          encodeSnapshotRequest({ type: 'chunk', height: h, index: i }),
          this.options.chunkMs,
        ),
        offer,
        i,
      );
      if (typeof chunk === 'string') throw new Error(`chunk ${i} of ${h}: ${chunk}`);
      file.set(chunk, i * SNAPSHOT_CHUNK_BYTES);
    }
    let state: SnapshotAnchor['state'];
    try {
      state = decodeSnapshot(file, offer.hash).state;
    } catch (e) {
      if (e instanceof SnapshotError) throw new Error(`snapshot ${h} refused: ${e.message}`);
      throw e;
    }
    if (state.height !== h) throw new Error(`snapshot offered at ${h} is of height ${state.height}`);
    const anchor = { state, block: atH.block, commit: atH.commit, next: next.block, nextCommit: next.commit };
    const problem = snapshotTrustProblem(this.genesis, anchor);
    if (problem !== null) throw new Error(`snapshot ${h} not proven: ${problem}`);
    return anchor;
  }
}
