/**
 * Transactions between their precheck and their admission: each is checked at once against the
 * mempool plus the transactions already waiting here (so a sender's consecutive nonces sent back
 * to back all pass), then waits; `flush` verifies the signatures of many waiting transactions in
 * one batch (cheaper per signature than one at a time) and adds them to the mempool in arrival
 * order, checking again what may have changed meanwhile. No timers: the caller decides when to
 * flush. `T` is the caller's data carried with each transaction (who waits for the answer).
 */
import type { ChainState, Tx } from '../chain/index.js';
import type { AdmitResult, Mempool, WaitingView } from './mempool.js';
import type { SignatureCache } from './signatureCache.js';

export interface WaitingTx<T> {
  readonly tx: Tx;
  readonly hash: string;
  readonly size: number;
  readonly tag: T;
}

export interface Flushed<T> {
  readonly entry: WaitingTx<T>;
  readonly result: AdmitResult;
}

export class AdmissionQueue<T> implements WaitingView {
  private entries: WaitingTx<T>[] = [];
  private readonly hashes = new Set<string>();
  private readonly bySender = new Map<string, WaitingTx<T>[]>();
  private waitingBytes = 0;

  constructor(
    private readonly mempool: Mempool,
    private readonly signatures: SignatureCache,
  ) {}

  get count(): number {
    return this.entries.length;
  }

  get bytes(): number {
    return this.waitingBytes;
  }

  has(hash: string): boolean {
    return this.hashes.has(hash);
  }

  ofSender(sender: string): readonly WaitingTx<T>[] {
    return this.bySender.get(sender) ?? [];
  }

  /** Prechecks `tx`; when it passes, it waits for the next flush. */
  offer(tx: Tx, hash: string, size: number, state: ChainState, tag: T): AdmitResult {
    const pre = this.mempool.precheck(tx, hash, size, state, this);
    if (!pre.ok) return pre;
    const entry: WaitingTx<T> = { tx, hash, size, tag };
    this.entries.push(entry);
    this.hashes.add(hash);
    this.waitingBytes += size;
    const mine = this.bySender.get(tx.from);
    if (mine) mine.push(entry);
    else this.bySender.set(tx.from, [entry]);
    return pre;
  }

  /** Verifies and admits the first `max` waiting transactions (all when fewer): take, then admit. */
  flush(state: ChainState, max: number): Flushed<T>[] {
    return this.admit(this.take(max), state);
  }

  /** Removes the first `max` waiting transactions (all when fewer) from the queue. */
  take(max: number): WaitingTx<T>[] {
    const taken = this.entries.slice(0, max);
    this.entries = this.entries.slice(taken.length);
    for (const e of taken) {
      this.hashes.delete(e.hash);
      this.waitingBytes -= e.size;
      const rest = (this.bySender.get(e.tx.from) ?? []).filter((x) => x !== e);
      if (rest.length === 0) this.bySender.delete(e.tx.from);
      else this.bySender.set(e.tx.from, rest);
    }
    return taken;
  }

  /**
   * Taken transactions: their signatures verified in one batch, then each added to the mempool
   * in arrival order (checked again there), with its result.
   */
  admit(taken: readonly WaitingTx<T>[], state: ChainState): Flushed<T>[] {
    const failures = this.signatures.checkAll(taken, state.params.chainId);
    return taken.map((entry, i) => {
      const bad = failures[i];
      const result: AdmitResult = bad
        ? { ok: false, code: bad.code, message: bad.message }
        : this.mempool.add(entry.tx, entry.hash, entry.size, state);
      return { entry, result };
    });
  }
}
