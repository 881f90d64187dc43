/**
 * The load generator: transactions from funded accounts at a rate, for a duration or a count,
 * with a mix of types, in the background while other steps run. Each account keeps up to
 * `window` transactions in flight with consecutive nonces (loadAccount.ts: how a nonce gap is
 * noticed and healed), on its own node; a node that does not answer or refuses is left for the
 * next, and a transaction not decided in time is sent again (the same signed bytes) to another
 * node, as a client would after its node crashed. Every transaction it sees confirmed goes into
 * the run's ledger; the report counts what was submitted, received, rejected, confirmed and
 * failed, and the confirmation latency (p50, p99).
 */
import type { Tx } from '@chain-devnet/node/chain';
import type { ReceiptAnswer } from '@chain-devnet/node/client';
import { pause } from '@chain-devnet/node/harness';
import type { NetContext } from './context.js';
import { TestkitUsageError } from './errors.js';
import { type Amount, weiOf } from './expect/accounts.js';
import { type AccountLoad, type Flight, LoadAccount } from './loadAccount.js';
import { COIN, Wallet } from './wallet.js';

export const LOAD_TX_TYPES = ['TRANSFER', 'DELEGATE', 'UNDELEGATE'] as const;
export type LoadTxType = (typeof LOAD_TX_TYPES)[number];

/** At most an hour and a million transactions: a load is always bounded. */
const MAX_SECONDS = 3600;
const MAX_COUNT = 1_000_000;
/** A node queues at most 64 transactions per sender (the mempool's maxPerSender). */
const MAX_WINDOW = 64;

export interface LoadOptions {
  /** Transactions per second over all accounts (a target); default: as fast as the accounts go. */
  readonly rate?: number;
  /** Seconds to send for; with count, whichever ends first. One of the two is required. */
  readonly duration?: number;
  /** Transactions to submit in all. */
  readonly count?: number;
  /** Weights by type; default all TRANSFER. UNDELEGATE takes back part of an earlier DELEGATE (else it delegates). */
  readonly mix?: Partial<Record<LoadTxType, number>>;
  /** Fresh accounts funded from account-0 (default 4), or devnet account names to send from. */
  readonly accounts?: number | readonly string[];
  /** Each fresh account's funding; default 1000coin. */
  readonly fund?: Amount;
  /** The nodes to send to; default every node. */
  readonly nodes?: readonly string[];
  /** Transactions each account keeps in flight (consecutive nonces), 1 to 64; default 8. */
  readonly window?: number;
}

export interface LoadReport {
  /** Transactions answered: received by a node, or rejected by every node; sending one again is not counted again. */
  readonly submitted: number;
  readonly received: number;
  /** Refused by every node it was sent to (a node catching up may refuse what another takes). */
  readonly rejected: number;
  readonly confirmed: number;
  readonly failed: number;
  /** Received, but neither confirmed nor failed when the load stopped. */
  readonly pending: number;
  /** Sends again of a transaction in flight to another node: not decided in time, or its account's node did not answer or refused. */
  readonly resent: number;
  /** From the first send to the confirmation, in ms: median, 99th percentile, largest. */
  readonly latencyMs: {
    readonly p50: number | null;
    readonly p99: number | null;
    readonly max: number | null;
  };
  readonly elapsedMs: number;
  readonly confirmedByType: Readonly<Record<string, number>>;
  /** The first few reasons of rejections and failures, with their counts. */
  readonly reasons: Readonly<Record<string, number>>;
}

export interface LoadTx {
  readonly hash: string;
  readonly type: LoadTxType;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly height: number;
}

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function checkOptions(o: LoadOptions): void {
  if (o.duration === undefined && o.count === undefined)
    throw new TestkitUsageError('a load needs a duration (seconds) or a count: it is always bounded');
  if (o.duration !== undefined && !(o.duration > 0 && o.duration <= MAX_SECONDS))
    throw new TestkitUsageError(
      `duration must be a number of seconds from 0 to ${MAX_SECONDS}, got ${o.duration}`,
    );
  if (o.count !== undefined && !(Number.isInteger(o.count) && o.count > 0 && o.count <= MAX_COUNT))
    throw new TestkitUsageError(`count must be an integer from 1 to ${MAX_COUNT}, got ${o.count}`);
  if (o.rate !== undefined && !(o.rate > 0 && Number.isFinite(o.rate)))
    throw new TestkitUsageError(`rate must be a positive number of transactions per second, got ${o.rate}`);
  for (const [t, w] of Object.entries(o.mix ?? {}))
    if (!(LOAD_TX_TYPES as readonly string[]).includes(t) || !(typeof w === 'number' && w >= 0))
      throw new TestkitUsageError(`mix takes weights >= 0 of ${LOAD_TX_TYPES.join(', ')}, got ${t}: ${w}`);
  if (
    typeof o.accounts === 'number' &&
    !(Number.isInteger(o.accounts) && o.accounts >= 1 && o.accounts <= 256)
  )
    throw new TestkitUsageError(`accounts must be from 1 to 256, got ${o.accounts}`);
  if (o.window !== undefined && !(Number.isInteger(o.window) && o.window >= 1 && o.window <= MAX_WINDOW))
    throw new TestkitUsageError(`window must be an integer from 1 to ${MAX_WINDOW}, got ${o.window}`);
}

export class Load {
  private readonly started = Date.now();
  private ended: number | null = null;
  private stopping = false;
  private remaining: number;
  private nextSlot = 0;
  private running: Promise<void> = Promise.resolve();
  private readonly latencies: number[] = [];
  private readonly txs: LoadTx[] = [];
  private readonly counts = {
    submitted: 0,
    received: 0,
    rejected: 0,
    confirmed: 0,
    failed: 0,
    pending: 0,
    resent: 0,
  };
  private readonly reasons = new Map<string, number>();
  private readonly weights: [LoadTxType, number][];
  /** What each account may still undelegate from each validator: delegations confirmed, less undelegations sent. */
  private readonly delegated = new Map<string, Map<string, bigint>>();
  readonly window: number;

  private constructor(
    readonly net: NetContext,
    private readonly o: LoadOptions,
    readonly wallets: readonly Wallet[],
    readonly nodes: readonly string[],
  ) {
    this.window = o.window ?? 8;
    this.remaining = o.count ?? Number.POSITIVE_INFINITY;
    const mix = Object.entries(o.mix ?? { TRANSFER: 1 }).filter(([, w]) => (w ?? 0) > 0) as [
      LoadTxType,
      number,
    ][];
    if (mix.length === 0) throw new TestkitUsageError('mix has no type with a weight above 0');
    this.weights = mix;
  }

  /** Funds fresh accounts (or takes the named ones) and starts sending in the background. */
  static async start(net: NetContext, o: LoadOptions): Promise<Load> {
    checkOptions(o);
    const nodes = o.nodes ?? net.names();
    for (const n of nodes) net.rpc(n);
    let wallets: Wallet[];
    if (Array.isArray(o.accounts)) {
      wallets = (o.accounts as readonly string[]).map((name) => {
        const a = net.accounts.find((x) => x.name === name);
        if (a === undefined)
          throw new TestkitUsageError(
            `no funded account ${name} (${net.accounts.map((x) => x.name).join(', ')})`,
          );
        return Wallet.of(a);
      });
    } else {
      const k = (o.accounts as number | undefined) ?? 4;
      wallets = Array.from({ length: k }, (_, i) => Wallet.random(`load-${i}`));
      await net.txs.fund(net.txs.faucet(), wallets, weiOf(o.fund ?? '1000coin', 'fund'), nodes[0]!);
    }
    const load = new Load(net, o, wallets, nodes);
    const asAccounts = load.forAccounts();
    load.running = Promise.all(wallets.map((w, i) => new LoadAccount(asAccounts, w, i).run())).then(() => {
      load.ended ??= Date.now();
    });
    return load;
  }

  /** Until it has sent its count or its duration is over, and every transaction in flight is decided. */
  async done(): Promise<LoadReport> {
    await this.running;
    return this.report();
  }

  /** Stops sending; waits (bounded) for the transactions in flight; the report. */
  async stop(): Promise<LoadReport> {
    this.stopping = true;
    await this.running;
    return this.report();
  }

  /** What it did so far. */
  report(): LoadReport {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const byType: Record<string, number> = {};
    for (const t of this.txs) byType[t.type] = (byType[t.type] ?? 0) + 1;
    return {
      ...this.counts,
      latencyMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null },
      elapsedMs: (this.ended ?? Date.now()) - this.started,
      confirmedByType: byType,
      reasons: Object.fromEntries(this.reasons),
    };
  }

  /** Every transaction it saw confirmed, in order. */
  confirmed(): readonly LoadTx[] {
    return this.txs;
  }

  /** Confirmed above `height`. */
  confirmedAfter(height: number): number {
    return this.txs.filter((c) => c.height > height).length;
  }

  /**
   * What each of its accounts must hold now, for a load of transfers only (rewards make the
   * balances of delegators move by themselves): funding minus what it sent and paid, plus what it
   * received.
   */
  expectedBalances(funded: ReadonlyMap<string, bigint>): Map<string, { balance: bigint; nonce: number }> {
    if (this.txs.some((t) => t.type !== 'TRANSFER'))
      throw new TestkitUsageError('expected balances are known for a load of transfers only');
    const out = new Map<string, { balance: bigint; nonce: number }>();
    const at = (a: string) => {
      let v = out.get(a);
      if (v === undefined) {
        v = { balance: funded.get(a) ?? 0n, nonce: 0 };
        out.set(a, v);
      }
      return v;
    };
    for (const w of this.wallets) at(w.address);
    for (const c of this.txs) {
      const s = at(c.from);
      s.balance -= c.amount + c.fee;
      s.nonce++;
      at(c.to).balance += c.amount;
    }
    return out;
  }

  private over(): boolean {
    return (
      this.stopping ||
      this.remaining <= 0 ||
      (this.o.duration !== undefined && Date.now() - this.started >= this.o.duration * 1000)
    );
  }

  private reasonKey(r: string): string {
    return r
      .replace(/[0-9a-f]{64}/g, '<hash>')
      .replace(/\d+/g, 'N')
      .slice(0, 120);
  }

  private reason(r: string): void {
    const key = this.reasonKey(r);
    if (this.reasons.has(key) || this.reasons.size < 10)
      this.reasons.set(key, (this.reasons.get(key) ?? 0) + 1);
  }

  /** What its accounts use of it: the pace, the content, the tally. */
  private forAccounts(): AccountLoad {
    return {
      net: this.net,
      nodes: this.nodes,
      window: this.window,
      turn: () => this.turn(),
      over: () => this.over(),
      compose: (index, k) => this.compose(index, k),
      received: () => this.tallyReceived(),
      rejected: (reason) => this.tallyRejected(reason),
      resent: () => this.tallyResent(),
      confirmed: (f, receipt) => this.tallyConfirmed(f, receipt),
      failed: (_f, reason) => this.tallyFailed(reason),
      failureUndone: (f, reason, receipt) => this.tallyFailureUndone(f, reason, receipt),
      pending: (count, reason) => this.tallyPending(count, reason),
      noAnswer: (e) => this.tallyNoAnswer(e),
    };
  }

  /** The next send's time under the rate (shared by every account), waited for, and taken. */
  private async turn(): Promise<boolean> {
    if (this.o.rate !== undefined) {
      const now = Date.now();
      const at = Math.max(now, this.nextSlot);
      this.nextSlot = at + 1000 / this.o.rate;
      if (at > now) await pause(at - now);
    }
    if (this.over()) return false;
    this.remaining--;
    return true;
  }

  private async compose(index: number, k: number): Promise<Pick<Tx, 'type' | 'to' | 'amount'>> {
    const from = this.wallets[index]!.address;
    const undelegateFrom = [...(this.delegated.get(from) ?? [])].find(([, a]) => a > 0n);
    let type = this.pick();
    if (type === 'UNDELEGATE' && undelegateFrom === undefined) type = 'DELEGATE';
    if (type === 'TRANSFER') {
      let to = this.wallets[(index + 1 + k) % this.wallets.length]!.address;
      if (to === from) to = Wallet.random('sink').address;
      return { type, to, amount: 1_000_000_007n * BigInt(k + 1) + BigInt(index) };
    }
    if (type === 'DELEGATE') {
      const active = await this.activeValidators(this.nodes);
      return { type, to: active[(index + k) % active.length]!, amount: COIN };
    }
    // Taken off at once, not at confirmation: with several in flight, two undelegations of the
    // same delegation could otherwise ask for more than it holds (and fail).
    const [validator, delegated] = undelegateFrom!;
    this.delegated.get(from)!.set(validator, delegated - COIN / 2n);
    return { type, to: validator, amount: COIN / 2n };
  }

  private tallyReceived(): void {
    this.counts.submitted++;
    this.counts.received++;
  }

  private tallyRejected(reason: string): void {
    this.counts.submitted++;
    this.counts.rejected++;
    this.reason(`rejected: ${reason}`);
  }

  private tallyResent(): void {
    this.counts.resent++;
  }

  private tallyConfirmed(f: Flight, receipt: ReceiptAnswer): void {
    const { tx, hash } = f;
    const height = receipt.block_height!;
    this.counts.confirmed++;
    this.latencies.push(Date.now() - f.firstSentAt);
    this.txs.push({
      hash,
      type: tx.type as LoadTxType,
      from: tx.from,
      to: tx.to ?? '',
      amount: tx.amount,
      fee: tx.fee,
      height,
    });
    this.net.ledger.record(hash, height, 'the load generator');
    if (tx.type === 'DELEGATE') {
      const mine = this.delegated.get(tx.from) ?? new Map<string, bigint>();
      mine.set(tx.to!, (mine.get(tx.to!) ?? 0n) + tx.amount);
      this.delegated.set(tx.from, mine);
    }
  }

  private tallyFailed(reason: string): void {
    this.counts.failed++;
    this.reason(`failed: ${reason}`);
  }

  private tallyFailureUndone(f: Flight, reason: string, receipt: ReceiptAnswer): void {
    this.counts.failed--;
    const key = this.reasonKey(`failed: ${reason}`);
    const n = (this.reasons.get(key) ?? 0) - 1;
    if (n > 0) this.reasons.set(key, n);
    else this.reasons.delete(key);
    this.tallyConfirmed(f, receipt);
  }

  private tallyPending(count: number, reason: string): void {
    this.counts.pending += count;
    this.reason(`pending: ${reason}`);
  }

  private tallyNoAnswer(e: unknown): void {
    this.reason(`no node answered: ${(e as Error).message}`);
  }

  private pick(): LoadTxType {
    const total = this.weights.reduce((s, [, w]) => s + w, 0);
    let r = Math.random() * total;
    for (const [t, w] of this.weights) {
      r -= w;
      if (r < 0) return t;
    }
    return this.weights.at(-1)![0];
  }

  private async anyNode<T>(nodes: readonly string[], f: (n: string) => Promise<T>): Promise<T> {
    let last: unknown = null;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      try {
        return await f(n);
      } catch (e) {
        last = e;
      }
    }
    throw last;
  }

  private activeCache: { at: number; set: string[] } | null = null;

  private async activeValidators(nodes: readonly string[]): Promise<string[]> {
    if (this.activeCache === null || Date.now() - this.activeCache.at > 5_000) {
      const { validators } = await this.anyNode(nodes, (n) => this.net.rpc(n).validators());
      this.activeCache = {
        at: Date.now(),
        set: validators.filter((v) => v.status === 'ACTIVE').map((v) => v.address),
      };
    }
    return this.activeCache.set;
  }
}
