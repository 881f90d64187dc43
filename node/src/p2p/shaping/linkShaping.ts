/**
 * TEST ONLY (fault injection): the shaping of a node's p2p links, below its protocols and above
 * the socket. Every connection's plaintext passes through it once decrypted (in) and before it is
 * encrypted (out), per remote peer and direction (shapingEncrypter.ts); RPC, metrics, the panel
 * and the market are HTTP and never pass here. The conditions may change while connections are
 * open: each chunk is shaped by those in force when it is handed over.
 */
import type { Ticker } from '../../util/ticker.js';
import {
  type Direction,
  isClear,
  type LinkCondition,
  linkCondition,
  type NetConditions,
  NO_CONDITIONS,
} from './conditions.js';
import { type Bucket, deliveryAt, newBucket, newLinkState } from './linkModel.js';
import { shapedPipe } from './shapedPipe.js';

export class LinkShaping {
  private conditions: NetConditions = NO_CONDITIONS;
  private readonly shared: Record<Direction, Bucket> = { out: newBucket(), in: newBucket() };
  private connections = 0;

  constructor(
    private readonly ticker: Ticker,
    /** Uniform in [0, 1): the node's randomness edge (a seeded one in a simulation). */
    private readonly random: () => number = Math.random,
  ) {}

  set(conditions: NetConditions): void {
    this.conditions = conditions;
  }

  current(): NetConditions {
    return this.conditions;
  }

  /** Whether messages of `peer` are kept from this node's protocols (one-way partition). */
  deafTo(peer: string): boolean {
    return this.conditions.deafTo.includes(peer);
  }

  /** The condition of one direction of the link to `peer` now. */
  condition(peer: string, direction: Direction): LinkCondition {
    return linkCondition(this.conditions, peer, direction);
  }

  /** `source` (one direction of a connection with `peer`) as the conditions shape it. */
  pipe<T extends { byteLength: number }>(
    source: AsyncIterable<T>,
    peer: string,
    direction: Direction,
  ): AsyncIterableIterator<T> {
    const state = newLinkState();
    const key = `shaping/${++this.connections}/${direction}`;
    const deadline = (bytes: number): number => {
      const now = this.ticker.now();
      const c = this.condition(peer, direction);
      if (isClear(c)) {
        // Nothing shapes it now: due at once (what waits is delivered at once too, shapedPipe).
        state.lastAt = now;
        return now;
      }
      return deliveryAt(c, state, this.shared[direction], now, bytes, this.random);
    };
    // No rule at all (a devnet's nodes most of the time): nothing to look up a chunk.
    const clear = () => this.conditions.links.length === 0 || isClear(this.condition(peer, direction));
    const shared = this.shared[direction];
    const behind = () => Math.max(0, Math.max(shared.at, state.bucket.at) - this.ticker.now());
    return shapedPipe(source, deadline, clear, this.ticker, key, behind);
  }
}
