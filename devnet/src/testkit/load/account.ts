/**
 * One account of the load generator: up to `window` transactions in flight with consecutive
 * nonces, sent to the account's node and followed to their outcome. New transactions are sent one
 * at a time, in nonce order, because a node refuses a nonce after a gap: n+1 is sent only once n
 * was received. Following costs one GET /balance per poll for the whole window (the account's
 * nonce on chain), plus the receipts of the transactions at or below that nonce.
 *
 * A gap (nonce n not taken, n+1… waiting behind it, never includable) heals one of two ways:
 * - n was received and then lost (its node crashed or dropped it): when n is not decided in time,
 *   or the account's node does not answer or refuses, the account moves to the next node and sends
 *   its transactions in flight there again, the same signed bytes, in nonce order;
 * - n failed in its block (a failed transaction leaves its nonce unused): the account signs a new
 *   transaction at n, after which those behind it can be included.
 * Nothing is counted twice: a transaction is one flight from its first send to its outcome,
 * however often it is sent again.
 */

import { now, pause } from '@chain-devnet/kit/wait';
import type { Tx } from '@chain-devnet/node/chain';
import type { ReceiptAnswer } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';
import type { Wallet } from '../wallet.js';

/** One transaction in flight. */
export interface Flight {
  readonly tx: Tx;
  readonly hash: string;
  readonly firstSentAt: number;
  lastSentAt: number;
}

/** What an account needs of its load: the pace, each transaction's content, the tally. */
export interface AccountLoad {
  readonly net: NetContext;
  readonly nodes: readonly string[];
  readonly window: number;
  /** Waits for the next send's turn under the rate and takes it; false once the load is over. */
  turn(): Promise<boolean>;
  over(): boolean;
  /** The next transaction's fields (all but the nonce) for the account's k-th transaction. */
  compose(account: number, k: number): Promise<Pick<Tx, 'type' | 'to' | 'amount'>>;
  received(): void;
  rejected(reason: string): void;
  resent(): void;
  confirmed(f: Flight, receipt: ReceiptAnswer): void;
  failed(f: Flight, reason: string): void;
  /** A transaction counted failed was included again after all, and confirmed (see check). */
  failureUndone(f: Flight, reason: string, receipt: ReceiptAnswer): void;
  pending(count: number, reason: string): void;
  noAnswer(e: unknown): void;
}

/** Between reads of the account's nonce and receipts. */
const POLL_MS = 100;
/** Blocks a transaction waits to be decided before it is sent to another node (and the bound of its whole life). */
const DECIDE_BLOCKS = 6;
const DEADLINE_BLOCKS = 30;

export class LoadAccount {
  /** By nonce. */
  private readonly flights = new Map<number, Flight>();
  /** The nonce of the next new transaction; null: read it from the chain (nothing in flight). */
  private next: number | null = null;
  /** A nonce left unused by a failed transaction, with this account's later ones waiting behind it. */
  private gap: number | null = null;
  /**
   * Transactions counted failed while their nonce is still unused, by nonce: a copy of one sent
   * again to another node (moveOn) before its failure was seen may be included there later, once
   * its rules pass, and take the nonce after all.
   */
  private readonly failedUnused = new Map<number, { readonly flight: Flight; readonly reason: string }>();
  /** The account's node, an index into the load's nodes. */
  private at: number;
  private k = 0;
  /** A transaction was not decided by its deadline: its nonce may yet be taken, so the account stops. */
  private stuck = false;
  private ending = false;
  private sending: Promise<unknown> = Promise.resolve();
  private settled: () => void = () => undefined;

  constructor(
    private readonly load: AccountLoad,
    readonly wallet: Wallet,
    private readonly index: number,
  ) {
    this.at = index % load.nodes.length;
  }

  /** Sends until the load is over, then follows what is in flight to its outcome. */
  async run(): Promise<void> {
    const following = this.follow();
    while (!this.stuck && !this.load.over()) {
      if (this.flights.size >= this.load.window) {
        await this.settledOrPause();
        continue;
      }
      if (!(await this.load.turn())) break;
      try {
        await this.sendNew();
      } catch (e) {
        // Not one node answered: the next round tries again, after a breath.
        this.load.noAnswer(e);
        if (this.flights.size === 0) this.next = null;
        await pause(200);
      }
    }
    this.ending = true;
    await following;
  }

  private node(): string {
    return this.load.nodes[this.at]!;
  }

  private async sendNew(): Promise<void> {
    const net = this.load.net;
    this.next ??= await this.nonceOnChain();
    const content = await this.load.compose(this.index, this.k++);
    let nonce = this.gap ?? this.next;
    let answer = await this.exclusive(async () =>
      this.submit(await net.txs.build(this.wallet, { ...content, nonce }, this.node())),
    );
    if (answer === 'behind a gap') {
      // Refused because a transaction before it failed (seen only now): the same content at
      // that nonce fills the gap instead. Refused again, it counts as rejected.
      nonce = this.gap!;
      answer = await this.exclusive(async () =>
        this.submit(await net.txs.build(this.wallet, { ...content, nonce }, this.node()), false),
      );
    }
    if (answer !== 'received') return;
    if (nonce === this.gap) this.gap = null;
    else this.next = nonce + 1;
  }

  /** The account's nonce on its node, or on the next that answers (which becomes its node). */
  private async nonceOnChain(): Promise<number> {
    let last: unknown = null;
    for (let tries = 0; tries < this.load.nodes.length; tries++) {
      try {
        return (await this.load.net.rpc(this.node()).balance(this.wallet.address)).nonce;
      } catch (e) {
        last = e;
        this.at = (this.at + 1) % this.load.nodes.length;
      }
    }
    throw last;
  }

  /**
   * Sends to the account's node, moving on (its flights carried) while a node does not answer or
   * refuses. A refusal while transactions are in flight, or a gap is open, is first checked
   * against the chain: when one of them failed, the refusal is the gap it left, not the node's
   * ('behind a gap', unless `behindGap` is false: the transaction already fills the gap); a gap
   * whose nonce another transaction took is closed.
   */
  private async submit(tx: Tx, behindGap = true): Promise<'received' | 'rejected' | 'behind a gap'> {
    const refusals: string[] = [];
    for (let tries = 0; tries < this.load.nodes.length; tries++) {
      if (tries > 0) await this.moveOn();
      const sentAt = now();
      let answer: Awaited<ReturnType<NetContext['txs']['sendBuilt']>>;
      try {
        answer = await this.load.net.txs.sendBuilt(tx, this.node());
      } catch {
        continue;
      }
      if (answer.submit.status === 'received') {
        this.flights.set(tx.nonce, { tx, hash: answer.hash, firstSentAt: sentAt, lastSentAt: sentAt });
        this.load.received();
        return 'received';
      }
      // Also for a transaction that fills a gap: the gap may be filled already (check clears it).
      if (refusals.length === 0 && (this.flights.size > 0 || this.gap !== null)) {
        await this.check().catch(() => undefined);
        if (behindGap && this.gap !== null && this.gap < tx.nonce) return 'behind a gap';
      }
      refusals.push(answer.submit.error ?? '');
    }
    if (refusals.length === 0) throw new Error(`none of ${this.load.nodes.join(', ')} answered`);
    this.load.rejected(refusals[0]!);
    return 'rejected';
  }

  /**
   * The next node becomes the account's, and gets its transactions in flight again, in nonce
   * order, the same bytes: one the old node lost would otherwise leave a gap no later nonce fills.
   */
  private async moveOn(): Promise<void> {
    this.at = (this.at + 1) % this.load.nodes.length;
    for (const [, f] of [...this.flights].sort(([a], [b]) => a - b)) {
      // An answer either way will do: a refusal says the node already has it (or its block).
      const answered = await this.load.net.txs.sendBuilt(f.tx, this.node()).then(
        () => true,
        () => false,
      );
      if (!answered) return;
      f.lastSentAt = now();
      this.load.resent();
    }
  }

  /** One send at a time (a new transaction or the carried ones), so nonces reach a node in order. */
  private exclusive<T>(f: () => Promise<T>): Promise<T> {
    const run = this.sending.then(f, f);
    this.sending = run.catch(() => undefined);
    return run;
  }

  private async settledOrPause(): Promise<void> {
    await Promise.race([new Promise<void>((resolve) => (this.settled = resolve)), pause(250)]);
  }

  private settle(nonce: number): void {
    this.flights.delete(nonce);
    this.settled();
  }

  /** Until the account sends no more and nothing is in flight. */
  private async follow(): Promise<void> {
    while (!this.ending || this.flights.size > 0) {
      await pause(POLL_MS);
      if (this.flights.size === 0) continue;
      const seen = await this.check().catch((e: unknown) => this.load.noAnswer(e));
      if (seen === 'move') await this.exclusive(() => this.moveOn());
      this.giveUp();
    }
  }

  /**
   * Reads the account's nonce and the receipts at or below it on its node, and settles what they
   * decide (once: a flight is settled only while it is still in flight); 'move' when the node
   * does not answer, or the first transaction not yet taken was not decided in time.
   */
  private async check(): Promise<'ok' | 'move'> {
    const net = this.load.net;
    let onChain: number;
    try {
      onChain = (await net.rpc(this.node()).balance(this.wallet.address)).nonce;
    } catch {
      return 'move';
    }
    await this.noncesTaken(onChain);
    for (const [nonce, f] of [...this.flights].sort(([a], [b]) => a - b)) {
      // Above the account's nonce nothing is decided yet: a failure leaves the nonce unused, so
      // the one AT the nonce may have failed; those above wait behind it.
      if (nonce > onChain) break;
      const r = await net.chain.receipt(this.node(), f.hash);
      if (this.flights.get(nonce) !== f) continue; // settled meanwhile (by the other caller)
      if (r?.status === 'confirmed') {
        this.settle(nonce);
        this.load.confirmed(f, r);
      } else if (r?.status === 'failed') {
        this.settle(nonce);
        const reason = r.error ?? '';
        this.load.failed(f, reason);
        // Below the account's nonce, another transaction took it (this one was replaced): no gap.
        if (nonce === onChain) {
          this.gap = nonce;
          this.failedUnused.set(nonce, { flight: f, reason });
        }
      } else if (nonce === onChain && now() - f.lastSentAt > net.within(DECIDE_BLOCKS)) {
        return 'move';
      }
    }
    return 'ok';
  }

  /**
   * Nonces below `onChain` are taken: a gap there is filled (by whichever transaction), and a
   * transaction counted failed at one is looked up again, since it may be what took it.
   */
  private async noncesTaken(onChain: number): Promise<void> {
    if (this.gap !== null && this.gap < onChain) this.gap = null;
    for (const [nonce, u] of [...this.failedUnused]) {
      if (nonce >= onChain) continue;
      const r = await this.load.net.chain.receipt(this.node(), u.flight.hash);
      if (this.failedUnused.get(nonce) !== u) continue; // looked up meanwhile (by the other caller)
      this.failedUnused.delete(nonce);
      if (r?.status === 'confirmed') this.load.failureUndone(u.flight, u.reason, r);
    }
  }

  /** Flights that can no longer be decided while the load follows them are counted pending. */
  private giveUp(): void {
    const past = [...this.flights.values()].some(
      (f) => now() - f.firstSentAt > this.load.net.within(DEADLINE_BLOCKS),
    );
    if (past) {
      this.stuck = true;
      this.load.pending(this.flights.size, 'not decided in time; its account stopped');
      this.flights.clear();
    } else if (this.gap !== null && this.ending && this.flights.size > 0) {
      this.load.pending(this.flights.size, `behind nonce ${this.gap}, which failed, when the load ended`);
      this.flights.clear();
    }
    this.settled();
  }
}
