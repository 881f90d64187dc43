/**
 * A load on the simulation: transactions signed by the network's funded accounts, each sent to a
 * node that is up (as the testkit's load sends them to a node's RPC), at a rate in virtual time.
 * The seed draws each one's type from the mix and the node it goes to, so a load is part of the
 * run a seed gives. Each account keeps up to `window` transactions in flight, consecutive nonces
 * from what the chain has committed; when ten blocks were committed without its oldest (the node
 * it went to crashed, its mempool gone), or it moves to another node, it sends again from the
 * nonce committed there, as a wallet would. Blocks, not time: while the chain stalls (a
 * partition) what it sent still waits in the mempool, and a resend would be refused.
 */
import { stringifyExact } from '@chain-devnet/kit/values';
import { minFee, signTx, type Tx, txToJson, WEI_PER_COIN } from '../chain/index.js';
import type { SimRandom } from './random.js';
import type { SimScheduler } from './scheduler.js';
import type { SimNode } from './simNode.js';

export type SimLoadTxType = 'TRANSFER' | 'DELEGATE';

export interface SimLoadOptions {
  /** Transactions a virtual second over all accounts. */
  readonly rate: number;
  /** How many of the network's funded accounts send (default all). */
  readonly accounts?: number;
  /** Weights of the types sent (default TRANSFER only). */
  readonly mix?: Partial<Record<SimLoadTxType, number>>;
  /** Transactions each account keeps in flight (default 8). */
  readonly window?: number;
  /** It stops after sending this many. */
  readonly count?: number;
  /** It stops this many virtual ms after its start. */
  readonly durationMs?: number;
}

export interface SimSender {
  readonly address: string;
  readonly privateKey: Uint8Array;
}

export interface SimLoadReport {
  /** Sent to a node. */
  readonly sent: number;
  /** Admitted by the node it was sent to. */
  readonly received: number;
  /** Refused at admission (a nonce already taken after a resend, a full mempool). */
  readonly rejected: number;
  /** Confirmed on the chain of `confirmedOn`, counted at the report. */
  readonly confirmed: number;
  /** Failed in a block (a state it did not expect). */
  readonly failed: number;
  /** How many were refused or failed for each reason's code. */
  readonly reasons: Readonly<Record<string, number>>;
}

interface Sender extends SimSender {
  next: number;
  /** Its node's height when the account last sent from the committed nonce. */
  since: number;
  k: number;
  node?: SimNode;
}

/** Blocks committed without an account's oldest transaction before it is taken as lost. */
const LOST_AFTER_BLOCKS = 10;

export interface SimLoadWorld {
  readonly scheduler: SimScheduler;
  readonly random: SimRandom;
  readonly nodes: readonly SimNode[];
  readonly validators: readonly string[];
}

export class SimLoad {
  private readonly senders: Sender[];
  private readonly weights: [SimLoadTxType, number][];
  private readonly window: number;
  private readonly hashes: string[] = [];
  private stopped = false;
  private counts = { sent: 0, received: 0, rejected: 0 };
  private readonly reasons = new Map<string, number>();

  private reason(code: string): void {
    this.reasons.set(code, (this.reasons.get(code) ?? 0) + 1);
  }

  constructor(
    private readonly world: SimLoadWorld,
    senders: readonly SimSender[],
    o: SimLoadOptions,
  ) {
    if (!(o.rate > 0)) throw new Error(`load.rate must be above 0, got ${o.rate}`);
    const count = o.accounts ?? senders.length;
    if (!Number.isInteger(count) || count < 1 || count > senders.length)
      throw new Error(
        `load.accounts: the simulated network has ${senders.length} funded accounts, got ${count}`,
      );
    this.senders = senders.slice(0, count).map((s) => ({ ...s, next: 0, since: 0, k: 0 }));
    this.weights = Object.entries(o.mix ?? { TRANSFER: 1 }).filter(([, w]) => (w ?? 0) > 0) as [
      SimLoadTxType,
      number,
    ][];
    if (this.weights.length === 0) throw new Error('load.mix has no type with a weight above 0');
    this.window = o.window ?? 8;
    const every = 1000 / o.rate;
    const endAt = world.scheduler.now + (o.durationMs ?? Number.POSITIVE_INFINITY);
    let turn = 0;
    const tick = () => {
      if (this.counts.sent >= (o.count ?? Number.POSITIVE_INFINITY) || world.scheduler.now >= endAt)
        this.stopped = true;
      if (this.stopped) return;
      void this.send(this.senders[turn++ % this.senders.length]!);
      world.scheduler.after(every, tick);
    };
    world.scheduler.after(every, tick);
  }

  stop(): void {
    this.stopped = true;
  }

  private async send(s: Sender): Promise<void> {
    const { scheduler, random, nodes } = this.world;
    const up = nodes.filter((n) => n.up && !n.paused);
    if (up.length === 0) return;
    // Its own node while that one is up (a mempool takes an account's nonces only without gaps,
    // and the earlier ones may not have reached another node yet), else one drawn from those up.
    let switched = false;
    if (s.node === undefined || !up.includes(s.node)) {
      s.node = up[Math.floor(random.next() * up.length)]!;
      switched = true;
    }
    const node = s.node;
    const state = node.service!.state;
    const committed = state.accounts.get(s.address)?.nonce ?? 0;
    const lost = committed < s.next && (switched || node.height - s.since > LOST_AFTER_BLOCKS);
    if (committed > s.next || lost) {
      s.next = committed; // behind the chain, or its in-flight ones lost: from the committed nonce
      s.since = node.height;
    }
    if (s.next - committed >= this.window) return;
    if (s.next === committed) s.since = node.height;
    const type = this.pick();
    const k = s.k++;
    const others = this.senders.filter((o) => o.address !== s.address);
    const tx: Tx = signTx(
      {
        type,
        from: s.address,
        to:
          type === 'TRANSFER'
            ? (others[k % Math.max(1, others.length)] ?? s).address
            : this.world.validators[k % this.world.validators.length]!,
        amount: type === 'TRANSFER' ? 1_000_000_007n * BigInt(k + 1) : WEI_PER_COIN,
        fee: minFee(type, state.params.minGasPrice),
        nonce: s.next++,
        gasPrice: 0,
        gasLimit: 0,
        timestamp: Math.floor(scheduler.now / 1000),
        payload: {},
      },
      s.privateKey,
      state.params.chainId,
    );
    const json = txToJson(tx);
    this.counts.sent++;
    const outcome = await node.service!.submit(json, stringifyExact(json).length);
    if (outcome.kind === 'received') {
      this.counts.received++;
      this.hashes.push(outcome.hash);
    } else {
      this.counts.rejected++;
      this.reason(outcome.kind === 'rejected' ? outcome.code : 'MALFORMED');
    }
  }

  private pick(): SimLoadTxType {
    const total = this.weights.reduce((sum, [, w]) => sum + w, 0);
    let r = this.world.random.next() * total;
    for (const [t, w] of this.weights) {
      r -= w;
      if (r < 0) return t;
    }
    return this.weights.at(-1)![0];
  }

  /** What the load did, its transactions' receipts read on `on` (a node that is up). */
  async report(on: SimNode): Promise<SimLoadReport> {
    let confirmed = 0;
    let failed = 0;
    for (const h of this.hashes) {
      const r = await on.service!.receipt(h);
      if (r?.status === 'confirmed') confirmed++;
      else if (r?.status === 'failed') {
        failed++;
        this.reason(r.error ?? 'FAILED');
      }
    }
    return { ...this.counts, confirmed, failed, reasons: Object.fromEntries(this.reasons) };
  }
}
