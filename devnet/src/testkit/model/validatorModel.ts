/**
 * An independent model of the validator set, replayed from the genesis file and the blocks the
 * nodes serve, following the written rules (docs/RULES.md): proposer slots, STAKE, UNSTAKE,
 * UNJAIL, and at each epoch boundary jailing by uptime, slashing by jail count, activation after
 * the delay, deactivation below the minimum stake. It knows, for every height, which set had to
 * propose, so every block of every node can be checked against the schedule, and it predicts
 * each validator's status, jail count and stake, and the wei burned, to compare with the nodes.
 * Part of the testkit's model (model/): it reads the nodes through ModelSource (source.ts), which
 * the testkit's NetContext satisfies, and imports nothing else of the testkit.
 *
 * Which rule of docs/RULES.md each part models:
 * - setFor, the segments: "Proposers, slots and uptime" (the set after the previous block)
 * - apply, slot counting: "Proposers, slots and uptime"
 * - apply, STAKE / UNSTAKE (the jailed penalty) / UNJAIL / UPDATE_VALIDATOR: "Validators"
 * - apply, TRANSFER to the burn address: "Burning and the treasury"
 * - burnedAfter: "Supply" (what is burned: slashing, unjail fees, the penalty, burn transfers)
 * - epochTransition: "Epochs" (steps 1 to 6), with "Validators" (activation, deactivation)
 * - checkProposers: "Proposers, slots and uptime"; compareWith: "Validators" and "Epochs"
 */
import { BURN_ADDRESS, type ChainParams } from '@chain-devnet/node/chain';
import type { BlockAnswer } from '@chain-devnet/node/client';
import { validatorAddressOf } from '@chain-devnet/node/crypto';
import { type ActiveSet, sortedSet } from './activeSet.js';
import { mulPpm, proposerOf, uptimePpm } from './economics.js';
import type { ModelChain, ModelSource } from './source.js';

export type ValidatorStatus = 'ACTIVE' | 'INACTIVE' | 'JAILED' | 'EJECTED';

export interface ModelValidator {
  readonly address: string;
  readonly pubKey: string;
  readonly name: string;
  readonly stake: bigint;
  readonly status: ValidatorStatus;
  readonly jailCount: number;
  readonly registeredHeight: number;
  readonly produced: number;
  readonly missed: number;
}

export interface EpochEvent {
  readonly height: number;
  readonly kind: 'jailed' | 'slashed' | 'ejected' | 'activated' | 'deactivated';
  readonly address: string;
  readonly amount?: bigint;
}

interface BlockTxFull {
  tx_type: string;
  amount: string;
  pub_key: string;
  tx_hash: string;
  to_address: string | null;
  payload?: { name?: string };
}

/** Types whose success changes the validator set or its stakes (the others need no receipt). */
const VALIDATOR_TXS = new Set(['STAKE', 'UNSTAKE', 'UNJAIL', 'UPDATE_VALIDATOR']);

export class ValidatorModel {
  /** Last block applied. */
  height = 0;
  private validators = new Map<string, ModelValidator>();
  /** The active set used for blocks from `from` on. */
  private readonly segments: { from: number; set: ActiveSet }[] = [];
  /** Validators after each applied block (for comparisons at the height a node was read). */
  private readonly history = new Map<number, ReadonlyMap<string, ModelValidator>>();
  /** Wei burned after each applied block: slashes, unjail fees, jailed-unstake penalties, transfers to the burn address. */
  private readonly burnedAt = new Map<number, bigint>();
  private burned = 0n;
  readonly events: EpochEvent[] = [];

  constructor(private readonly net: ModelSource) {
    for (const g of net.genesis.state.validators.values()) {
      const address = g.address;
      this.validators.set(address, {
        address,
        pubKey: g.pubKey,
        name: g.name,
        stake: g.stake,
        // ACTIVE for a genesis validator; a fork's genesis also holds retired ones (INACTIVE).
        status: g.status,
        jailCount: g.jailCount,
        registeredHeight: g.registeredHeight,
        produced: 0,
        missed: 0,
      });
    }
    this.segments.push({ from: 1, set: this.currentSet() });
    this.history.set(0, new Map(this.validators));
    this.burnedAt.set(0, 0n);
  }

  private get p(): ChainParams {
    return this.net.params;
  }

  private get chain(): ModelChain {
    return this.net.chain;
  }

  private currentSet(): ActiveSet {
    return sortedSet(
      [...this.validators.values()].filter((v) => v.status === 'ACTIVE').map((v) => v.address),
    );
  }

  /** The set that proposes block `h` (known up to one block past the last applied). */
  setFor(h: number): ActiveSet {
    if (h > this.height + 1) throw new Error(`the model is at ${this.height}; no schedule for ${h} yet`);
    for (let i = this.segments.length - 1; i >= 0; i--)
      if (this.segments[i]!.from <= h) return this.segments[i]!.set;
    throw new Error(`no schedule for height ${h}`);
  }

  /** Validators after block `h`. */
  at(h: number): ReadonlyMap<string, ModelValidator> {
    const v = this.history.get(h);
    if (v === undefined) throw new Error(`the model has no state at height ${h} (it is at ${this.height})`);
    return v;
  }

  burnedAfter(h: number): bigint {
    const b = this.burnedAt.get(h);
    if (b === undefined) throw new Error(`the model has no state at height ${h} (it is at ${this.height})`);
    return b;
  }

  byName(name: string, h = this.height): ModelValidator {
    const v = [...this.at(h).values()].find((x) => x.name === name);
    if (v === undefined) throw new Error(`the chain's history has no validator named ${name} at height ${h}`);
    return v;
  }

  nameOf(address: string): string {
    return this.validators.get(address)?.name || address;
  }

  /** Applies blocks up to `h`, read from `source` (default: the first node that answers). */
  syncTo(h: number, source?: string): Promise<void> {
    // One replay at a time: concurrent callers queue behind each other.
    const run = this.queue.then(() => this.replay(h, source));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private queue: Promise<void> = Promise.resolve();

  private async replay(h: number, source: string | undefined): Promise<void> {
    if (this.height >= h) return;
    const from = source ?? (await this.answering());
    await this.chain.waitHeight(h, [from]);
    const blocks = await this.chain.blocksOf(from, this.height + 1, h);
    for (const b of blocks) await this.apply(b, from);
  }

  private async answering(): Promise<string> {
    for (const n of this.net.names()) {
      try {
        await this.chain.height(n);
        return n;
      } catch {
        // next
      }
    }
    throw new Error('no node of the devnet answers');
  }

  private set(v: ModelValidator): void {
    this.validators.set(v.address, v);
  }

  private async apply(block: BlockAnswer, source: string): Promise<void> {
    const h = block.header.height;
    if (h !== this.height + 1) throw new Error(`the model applies ${h} after ${this.height}`);
    const set = this.setFor(h);
    const round = block.header.round;
    for (let r = 0; r < round; r++) {
      const v = this.validators.get(proposerOf(set, h, r))!;
      this.set({ ...v, missed: v.missed + 1 });
    }
    const producer = this.validators.get(proposerOf(set, h, round))!;
    this.set({ ...producer, produced: producer.produced + 1 });

    for (const tx of block.txs as unknown as BlockTxFull[]) {
      // A TRANSFER to the burn address burns its amount (docs/RULES.md, "Burning and the treasury").
      const burns = tx.tx_type === 'TRANSFER' && tx.to_address === BURN_ADDRESS;
      if (!VALIDATOR_TXS.has(tx.tx_type) && !burns) continue;
      const receipt = await this.chain.receipt(source, tx.tx_hash);
      if (receipt?.status !== 'confirmed') continue;
      if (burns) {
        this.burned += BigInt(tx.amount);
        continue;
      }
      const address = validatorAddressOf(tx.pub_key);
      const v = this.validators.get(address);
      const amount = BigInt(tx.amount);
      switch (tx.tx_type) {
        case 'STAKE':
          if (v === undefined)
            this.set({
              address,
              pubKey: tx.pub_key,
              name: tx.payload?.name ?? '',
              stake: amount,
              status: 'INACTIVE',
              jailCount: 0,
              registeredHeight: h,
              produced: 0,
              missed: 0,
            });
          else this.set({ ...v, stake: v.stake + amount, name: tx.payload?.name ?? v.name });
          break;
        case 'UNSTAKE': {
          const penalty = v!.status === 'JAILED' ? mulPpm(amount, this.p.jailedUnstakePenaltyPpm) : 0n;
          this.burned += penalty;
          this.set({ ...v!, stake: v!.stake - amount - penalty });
          break;
        }
        case 'UNJAIL': {
          this.burned += this.p.unjailFee;
          const active = [...this.validators.values()].filter((x) => x.status === 'ACTIVE').length;
          this.set({
            ...v!,
            status: active < this.p.maxValidators ? 'ACTIVE' : 'INACTIVE',
            produced: 0,
            missed: 0,
          });
          break;
        }
        case 'UPDATE_VALIDATOR':
          if (tx.payload?.name !== undefined) this.set({ ...v!, name: tx.payload.name });
          break;
      }
    }
    if (h % this.p.epochLength === 0) this.epochTransition(h);
    this.height = h;
    this.history.set(h, new Map(this.validators));
    this.burnedAt.set(h, this.burned);
    const next = this.currentSet();
    const last = this.segments[this.segments.length - 1]!.set;
    if (next.join() !== last.join()) this.segments.push({ from: h + 1, set: next });
  }

  private epochTransition(h: number): void {
    const p = this.p;
    const all = () => [...this.validators.values()];
    const active = all().filter((v) => v.status === 'ACTIVE');
    const toJail = active.filter((v) => uptimePpm(v) < p.minUptimePpm);
    if (toJail.length < active.length)
      for (const v of toJail) {
        const jailCount = v.jailCount + 1;
        const slashed = jailCount >= 3 ? v.stake : mulPpm(v.stake, p.slashPpm[Math.min(jailCount, 3) - 1]!);
        this.set({
          ...v,
          status: jailCount >= 3 ? 'EJECTED' : 'JAILED',
          jailCount,
          stake: v.stake - slashed,
        });
        this.burned += slashed;
        this.events.push({ height: h, kind: 'jailed', address: v.address });
        this.events.push({ height: h, kind: 'slashed', address: v.address, amount: slashed });
        if (jailCount >= 3) this.events.push({ height: h, kind: 'ejected', address: v.address });
      }
    let activeCount = all().filter((v) => v.status === 'ACTIVE').length;
    const candidates = all()
      .filter(
        (v) =>
          v.status === 'INACTIVE' && v.stake >= p.minStake && h - v.registeredHeight >= p.activationDelay,
      )
      .sort((a, b) => (a.stake === b.stake ? (a.address < b.address ? -1 : 1) : a.stake > b.stake ? -1 : 1));
    for (const v of candidates) {
      if (activeCount >= p.maxValidators) break;
      this.set({ ...v, status: 'ACTIVE' });
      activeCount++;
      this.events.push({ height: h, kind: 'activated', address: v.address });
    }
    const still = all().filter((v) => v.status === 'ACTIVE');
    const below = still
      .filter((v) => v.stake < p.minStake)
      .sort((a, b) => (a.stake === b.stake ? (a.address < b.address ? -1 : 1) : a.stake < b.stake ? -1 : 1));
    for (const v of below.length === still.length ? below.slice(0, -1) : below) {
      this.set({ ...v, status: 'INACTIVE' });
      this.events.push({ height: h, kind: 'deactivated', address: v.address });
    }
    for (const v of all()) if (v.produced !== 0 || v.missed !== 0) this.set({ ...v, produced: 0, missed: 0 });
  }

  /**
   * Every block from..to on every named node was proposed by the validator the schedule names
   * for its (height, round), and signed with that validator's key. Returns the round-0 blocks
   * per proposer seen on the first node.
   */
  async checkProposers(names: readonly string[], from: number, to: number): Promise<Map<string, number>> {
    await this.syncTo(to);
    await this.chain.waitHeight(to, names);
    const round0 = new Map<string, number>();
    for (const [i, n] of names.entries()) {
      const blocks = await this.chain.blocksOf(n, from, to);
      for (const b of blocks) {
        const h = b.header.height;
        const set = this.setFor(h);
        const want = proposerOf(set, h, b.header.round);
        if (b.header.proposer_address !== want)
          throw this.net.failure({
            node: n,
            height: h,
            expected: `the proposer of round ${b.header.round} the schedule names (${set.length} active: ${set.map((a) => this.nameOf(a)).join(', ')}): ${this.nameOf(want)}`,
            found: `proposer ${this.nameOf(b.header.proposer_address)}`,
          });
        if (b.header.pub_key !== this.validators.get(want)!.pubKey)
          throw this.net.failure({
            node: n,
            height: h,
            expected: `header pub_key ${this.validators.get(want)!.pubKey} (the key of ${this.nameOf(want)})`,
            found: b.header.pub_key,
          });
        if (i === 0 && b.header.round === 0) round0.set(want, (round0.get(want) ?? 0) + 1);
      }
    }
    return round0;
  }

  /**
   * /validators of `name` equals the model at the height it was read: the status, jail count and
   * stake (power) of every validator, and no validator the model does not know.
   */
  async compareWith(name: string): Promise<number> {
    const { height, validators } = await this.chain.activeSet(name);
    await this.syncTo(height);
    const want = this.at(height);
    const listed = validators.map((v) => v.address).sort();
    const known = [...want.keys()].sort();
    if (listed.join() !== known.join())
      throw this.net.failure({
        node: name,
        height,
        expected: `the validators of the chain's history: ${known.map((a) => this.nameOf(a)).join(', ')}`,
        found: `/validators lists ${listed.map((a) => this.nameOf(a)).join(', ')}`,
      });
    for (const v of validators) {
      const m = want.get(v.address)!;
      const who = `validator ${m.name || v.address}`;
      for (const [field, got, expected] of [
        ['status', v.status, m.status],
        ['jail_count', v.jail_count, m.jailCount],
        ['power', BigInt(v.power), m.stake],
        ['produced_slots', v.produced_slots, m.produced],
        ['missed_slots', v.missed_slots, m.missed],
      ] as const)
        if (got !== expected)
          throw this.net.failure({
            node: name,
            height,
            expected: `${who} ${field} ${expected} (the chain's history)`,
            found: String(got),
          });
    }
    return height;
  }
}
