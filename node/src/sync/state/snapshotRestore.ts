/**
 * A snapshot's chunks turned into a state only once its content is proven (docs/PROTOCOL.md, "State
 * sync"), in two passes, so that nothing is built from content that is not the committed state:
 *
 * 1. as each chunk arrives: inflated, hashed, and each entry's leaf hash folded into the state
 *    root (SnapshotStream, MerkleFrontier), keeping nothing but the gzip bytes received (what was
 *    on the wire); the header is checked as soon as it is read (chain, height, last block hash,
 *    the entries a state of this chain can hold at that height: maxEntriesAt), the content is
 *    bounded (MAX_SNAPSHOT_INFLATION per byte of the file, 1 GiB), and at the end its hash must be
 *    the offer's and its root block h's `state_root`;
 * 2. only then the same bytes are inflated again into the state (StateBuilder).
 *
 * The work goes in slices of the file, and whenever 20 ms of it have passed the event loop gets a
 * turn (through the ticker), so the node's RPC keeps answering while a large snapshot is read.
 */
import {
  type ChainState,
  leafHash,
  MerkleFrontier,
  SnapshotError,
  type SnapshotHeader,
  SnapshotStream,
  StateBuilder,
  snapshotLimits,
  snapshotState,
} from '../../chain/index.js';
import { bytesToHex } from '../../crypto/hex.js';
import type { Ticker } from '../../util/ticker.js';

/** What the content must be: known from the offer and the checked blocks h and h+1, before any chunk. */
export interface ExpectedSnapshot {
  readonly height: number;
  /** The offer's hash (SHA-256 of the content). */
  readonly hash: string;
  /** The offer's size (bytes of the gzip file). */
  readonly size: number;
  readonly chainId: string;
  /** The hash of block h. */
  readonly lastBlockHash: string;
  /** Block h's state_root. */
  readonly stateRoot: string;
  /** The most entries a state of this chain holds at h (maxEntriesAt). */
  readonly maxEntries: number;
}

/** Content that reads as a snapshot but is not the committed state: its root is not block h's. */
export class UnprovenSnapshot extends Error {
  override readonly name = 'UnprovenSnapshot';
}

/** Bytes of the file handed to the stream at once: a slice's work is bounded by its inflation bound. */
const SLICE_BYTES = 4 * 1024;
/** Work between two turns of the event loop. */
const WORK_MS = 20;

/** Gives the event loop a turn whenever WORK_MS of work have passed. */
class Pacer {
  private since: number;
  constructor(private readonly ticker: Ticker) {
    this.since = ticker.now();
  }

  async maybeYield(): Promise<void> {
    if (this.ticker.now() - this.since < WORK_MS) return;
    await new Promise<void>((resolve) => this.ticker.schedule('statesync/yield', 0, resolve));
    this.since = this.ticker.now();
  }
}

export class SnapshotVerifier {
  private readonly chunks: Uint8Array[] = [];
  private readonly frontier = new MerkleFrontier();
  private readonly stream: SnapshotStream;
  private readonly pacer: Pacer;
  private done = false;

  constructor(
    private readonly expected: ExpectedSnapshot,
    ticker: Ticker,
  ) {
    this.pacer = new Pacer(ticker);
    this.stream = new SnapshotStream(snapshotLimits(expected.size, expected.maxEntries), {
      header: (h) => this.checkHeader(h),
      entry: (_e, leafData) => this.frontier.push(leafHash(leafData)),
    });
  }

  /** Pass 1 over the next chunk of the file (in order; `final` with the last). Throws SnapshotError, or UnprovenSnapshot at the end. */
  async push(chunk: Uint8Array, final: boolean): Promise<void> {
    this.chunks.push(chunk);
    await feed(this.stream, [chunk], final, this.pacer);
    if (!final) return;
    const { hash } = this.stream.finish();
    if (hash !== this.expected.hash)
      throw new SnapshotError(`snapshot hash ${hash} does not match the expected ${this.expected.hash}`);
    const root = bytesToHex(this.frontier.root());
    if (root !== this.expected.stateRoot)
      throw new UnprovenSnapshot(
        `restored state root ${root} differs from block ${this.expected.height}'s state_root ${this.expected.stateRoot}`,
      );
    this.done = true;
  }

  /** Pass 2, once the content is proven: the state it holds. */
  async state(): Promise<ChainState> {
    if (!this.done) throw new Error('internal: the snapshot is not proven yet');
    const builder = new StateBuilder();
    const again = new SnapshotStream(snapshotLimits(this.expected.size), { entry: (e) => builder.add(e) });
    await feed(again, this.chunks, true, this.pacer);
    return snapshotState(builder, again.finish().header);
  }

  /** The root of the proven content (block h's state_root). */
  get root(): string {
    return this.expected.stateRoot;
  }

  private checkHeader(h: SnapshotHeader): void {
    const e = this.expected;
    if (h.chainId !== e.chainId)
      throw new SnapshotError(`snapshot is of chain ${h.chainId}, not ${e.chainId}`);
    if (h.position.height !== e.height)
      throw new SnapshotError(`snapshot offered at ${e.height} is of height ${h.position.height}`);
    if (h.position.lastBlockHash !== e.lastBlockHash)
      throw new SnapshotError(`snapshot's last block hash is not that of block ${e.height}`);
  }
}

/** Feeds `chunks` to `stream` in slices, pacing the work; `final` marks the last byte of the file. */
async function feed(stream: SnapshotStream, chunks: readonly Uint8Array[], final: boolean, pacer: Pacer) {
  for (const [c, chunk] of chunks.entries()) {
    const lastChunk = final && c === chunks.length - 1;
    if (chunk.length === 0 && lastChunk) stream.push(chunk, true);
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
      const end = Math.min(at + SLICE_BYTES, chunk.length);
      stream.push(chunk.subarray(at, end), lastChunk && end === chunk.length);
      await pacer.maybeYield();
    }
  }
}
