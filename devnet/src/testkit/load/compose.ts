/**
 * What the load sends: each transaction's type drawn from the mix, and its recipient and amount
 * (transfers around the load's accounts, delegations to the active validators, undelegations of
 * part of what an account delegated before).
 */

import { now } from '@chain-devnet/kit/wait';
import type { Tx } from '@chain-devnet/node/chain';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { testRandom } from '../random.js';
import { COIN, Wallet } from '../wallet.js';
import type { LoadTxType } from './options.js';

export class Composer {
  private readonly weights: [LoadTxType, number][];
  /** What each account may still undelegate from each validator: delegations confirmed, less undelegations sent. */
  private readonly delegated = new Map<string, Map<string, bigint>>();
  private activeCache: { at: number; set: string[] } | null = null;

  constructor(
    private readonly net: NetContext,
    mixOption: Partial<Record<LoadTxType, number>> | undefined,
    private readonly wallets: readonly Wallet[],
    private readonly nodes: readonly string[],
  ) {
    const mix = Object.entries(mixOption ?? { TRANSFER: 1 }).filter(([, w]) => (w ?? 0) > 0) as [
      LoadTxType,
      number,
    ][];
    if (mix.length === 0) throw new TestkitUsageError('mix has no type with a weight above 0');
    this.weights = mix;
  }

  /** The fields (all but the nonce) of account `index`'s k-th transaction. */
  async compose(index: number, k: number): Promise<Pick<Tx, 'type' | 'to' | 'amount'>> {
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

  /** A confirmed DELEGATE can be undelegated from later. */
  confirmed(tx: Tx): void {
    if (tx.type === 'DELEGATE') {
      const mine = this.delegated.get(tx.from) ?? new Map<string, bigint>();
      mine.set(tx.to!, (mine.get(tx.to!) ?? 0n) + tx.amount);
      this.delegated.set(tx.from, mine);
    }
  }

  private pick(): LoadTxType {
    const total = this.weights.reduce((s, [, w]) => s + w, 0);
    let r = testRandom.float() * total;
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

  private async activeValidators(nodes: readonly string[]): Promise<string[]> {
    if (this.activeCache === null || now() - this.activeCache.at > 5_000) {
      const { validators } = await this.anyNode(nodes, (n) => this.net.rpc(n).validators());
      this.activeCache = {
        at: now(),
        set: validators.filter((v) => v.status === 'ACTIVE').map((v) => v.address),
      };
    }
    return this.activeCache.set;
  }
}
