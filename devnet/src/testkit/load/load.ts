/**
 * The load generator: transactions from funded accounts at a rate, for a duration or a count,
 * with a mix of types, in the background while other steps run. Each account keeps up to
 * `window` transactions in flight with consecutive nonces (account.ts: how a nonce gap is
 * noticed and healed), on its own node; a node that does not answer or refuses is left for the
 * next, and a transaction not decided in time is sent again (the same signed bytes) to another
 * node, as a client would after its node crashed. Every transaction it sees confirmed goes into
 * the run's ledger; the report counts what was submitted, received, rejected, confirmed and
 * failed, and the confirmation latency (p50, p99).
 */

import { now } from '@chain-devnet/kit/wait';
import type { ReceiptAnswer } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { weiOf } from '../expect/accounts.js';
import { Wallet } from '../wallet.js';
import { type AccountLoad, type Flight, LoadAccount } from './account.js';
import { Composer } from './compose.js';
import { checkOptions, DEFAULT_LOAD_ACCOUNTS, type LoadOptions } from './options.js';
import { Pacing } from './pacing.js';
import { type LoadReport, type LoadTx, Tally } from './report.js';

export class Load {
  private ended: number | null = null;
  private running: Promise<void> = Promise.resolve();
  private readonly pacing: Pacing;
  private readonly tally = new Tally();
  private readonly composer: Composer;
  readonly window: number;

  private constructor(
    readonly net: NetContext,
    o: LoadOptions,
    readonly wallets: readonly Wallet[],
    readonly nodes: readonly string[],
  ) {
    this.window = o.window ?? 8;
    this.pacing = new Pacing(o);
    this.composer = new Composer(net, o.mix, wallets, nodes);
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
      const k = (o.accounts as number | undefined) ?? DEFAULT_LOAD_ACCOUNTS;
      wallets = Array.from({ length: k }, (_, i) => Wallet.random(`load-${i}`));
      await net.txs.fund(net.txs.faucet(), wallets, weiOf(o.fund ?? '1000coin', 'fund'), nodes[0]!);
    }
    const load = new Load(net, o, wallets, nodes);
    const asAccounts = load.forAccounts();
    load.running = Promise.all(wallets.map((w, i) => new LoadAccount(asAccounts, w, i).run())).then(() => {
      load.ended ??= now();
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
    this.pacing.stop();
    await this.running;
    return this.report();
  }

  /** What it did so far. */
  report(): LoadReport {
    return this.tally.report((this.ended ?? now()) - this.pacing.started);
  }

  /** Every transaction it saw confirmed, in order. */
  confirmed(): readonly LoadTx[] {
    return this.tally.txs;
  }

  /** Confirmed above `height`. */
  confirmedAfter(height: number): number {
    return this.tally.txs.filter((c) => c.height > height).length;
  }

  /**
   * What each of its accounts must hold now, for a load of transfers only (rewards make the
   * balances of delegators move by themselves): funding minus what it sent and paid, plus what it
   * received.
   */
  expectedBalances(funded: ReadonlyMap<string, bigint>): Map<string, { balance: bigint; nonce: number }> {
    const txs = this.tally.txs;
    if (txs.some((t) => t.type !== 'TRANSFER'))
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
    for (const c of txs) {
      const s = at(c.from);
      s.balance -= c.amount + c.fee;
      s.nonce++;
      at(c.to).balance += c.amount;
    }
    return out;
  }

  /** What its accounts use of it: the pace, the content, the tally. */
  private forAccounts(): AccountLoad {
    return {
      net: this.net,
      nodes: this.nodes,
      window: this.window,
      turn: () => this.pacing.turn(),
      over: () => this.pacing.over(),
      compose: (index, k) => this.composer.compose(index, k),
      received: () => this.tally.received(),
      rejected: (reason) => this.tally.rejected(reason),
      resent: () => this.tally.resent(),
      confirmed: (f, receipt) => this.confirmedFlight(f, receipt),
      failed: (_f, reason) => this.tally.failed(reason),
      failureUndone: (f, reason, receipt) => {
        this.tally.failureUndone(reason);
        this.confirmedFlight(f, receipt);
      },
      pending: (count, reason) => this.tally.pending(count, reason),
      noAnswer: (e) => this.tally.noAnswer(e),
    };
  }

  /** A confirmed transaction: counted, in the run's ledger, and (a delegation) one to undelegate from later. */
  private confirmedFlight(f: Flight, receipt: ReceiptAnswer): void {
    const done = this.tally.confirmed(f, receipt);
    this.net.ledger.record(done.hash, done.height, 'the load generator');
    this.composer.confirmed(f.tx);
  }
}
