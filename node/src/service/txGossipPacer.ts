/**
 * Paces the gossip of this node's own transactions (those the RPC admitted, and the genuine ones
 * of a message it rejected): at most one `/chain/txs/1.0.0` publication per `intervalMs`. What is
 * admitted meanwhile waits and leaves together, as one message (or the fewest that fit the size
 * bound, p2p/messages.ts). A node that has not published for `intervalMs` publishes at once, so an
 * idle node adds no delay; a loaded one adds at most `intervalMs`.
 *
 * Why (docs/BENCHMARKS.md, "Committed transfers per second"): under load each node's libp2p work
 * (gossipsub, noise, yamux, socket writes) was the largest part of its CPU, and it is paid per
 * message, not per transaction: a node's RPC flush held one or two transfers, so nearly every
 * transfer was a message of its own, received and forwarded on every node. The bytes on the wire
 * are those of a message of several transactions, which the protocol already has.
 */
import type { Tx } from '../chain/index.js';

/** Long enough to gather a loaded node's transfers, short against a block (100 ms and more). */
export const TX_GOSSIP_INTERVAL_MS = 10;

/** The environment variable that sets the interval (milliseconds, 0 to 1000; 0 publishes at once). */
export const TX_GOSSIP_INTERVAL_ENV = 'CHAIN_NODE_TX_GOSSIP_INTERVAL_MS';

/** The interval from the environment's value; unset or empty gives the default. */
export function txGossipIntervalMs(value: string | undefined): number {
  if (value === undefined || value === '') return TX_GOSSIP_INTERVAL_MS;
  const ms = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms <= 1000))
    throw new Error(`${TX_GOSSIP_INTERVAL_ENV} must be an integer from 0 to 1000, got ${JSON.stringify(value)}`);
  return ms;
}

export class TxGossipPacer {
  private pending: Tx[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastSent = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly send: (txs: readonly Tx[]) => void,
    private readonly intervalMs: number = TX_GOSSIP_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Gossips `txs` now, or with what else comes before the interval is over. */
  push(txs: readonly Tx[]): void {
    if (this.stopped || txs.length === 0) return;
    for (const tx of txs) this.pending.push(tx);
    if (this.timer !== null) return;
    const wait = this.lastSent + this.intervalMs - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Transactions waiting for the next publication. */
  get waiting(): number {
    return this.pending.length;
  }

  /** Publishes nothing more; what waits is dropped (the mempool still holds it). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }

  private flush(): void {
    if (this.stopped || this.pending.length === 0) return;
    const txs = this.pending;
    this.pending = [];
    this.lastSent = this.now();
    this.send(txs);
  }
}
