/**
 * A mutable view over an immutable ChainState, used while one block executes. Writes go to
 * overlays; `finish()` builds the next state and shares every untouched entry with the old one.
 * A draft that is dropped leaves no trace, so checking a transaction against a state costs
 * nothing beyond the check.
 */
import type { ChainParams } from '../params.js';
import {
  type Account,
  type ChainState,
  type Delegation,
  EMPTY_ACCOUNT,
  type Totals,
  type UnbondingEntry,
  type UpgradePlan,
  type UpgradeSignal,
  type Validator,
} from './types.js';

class MapOverlay<K, V> {
  private readonly changes = new Map<K, V | undefined>();
  constructor(private readonly base: ReadonlyMap<K, V>) {}

  get(key: K): V | undefined {
    return this.changes.has(key) ? this.changes.get(key) : this.base.get(key);
  }

  set(key: K, value: V): void {
    this.changes.set(key, value);
  }

  delete(key: K): void {
    this.changes.set(key, undefined);
  }

  keys(): K[] {
    const out: K[] = [];
    for (const k of this.base.keys()) if (!this.changes.has(k)) out.push(k);
    for (const [k, v] of this.changes) if (v !== undefined) out.push(k);
    return out;
  }

  finish(): ReadonlyMap<K, V> {
    if (this.changes.size === 0) return this.base;
    const next = new Map(this.base);
    for (const [k, v] of this.changes) {
      if (v === undefined) next.delete(k);
      else next.set(k, v);
    }
    return next;
  }
}

export class StateDraft {
  params: ChainParams;
  protocolVersion: string;
  upgrades: readonly UpgradePlan[];
  totals: Totals;
  unbonding: UnbondingEntry[];
  nextUnbondingSeq: number;
  genesisHash: string | null;
  private readonly accounts: MapOverlay<string, Account>;
  private readonly validators: MapOverlay<string, Validator>;
  private readonly delegations: MapOverlay<string, ReadonlyMap<string, Delegation>>;
  private readonly signals: MapOverlay<string, UpgradeSignal>;

  constructor(readonly base: ChainState) {
    this.params = base.params;
    this.protocolVersion = base.protocolVersion;
    this.upgrades = base.upgrades;
    this.totals = base.totals;
    this.unbonding = [...base.unbonding];
    this.nextUnbondingSeq = base.nextUnbondingSeq;
    this.genesisHash = base.genesisHash;
    this.accounts = new MapOverlay(base.accounts);
    this.validators = new MapOverlay(base.validators);
    this.delegations = new MapOverlay(base.delegations);
    this.signals = new MapOverlay(base.upgradeSignals);
  }

  upgradeSignal(validator: string): UpgradeSignal | undefined {
    return this.signals.get(validator);
  }

  setUpgradeSignal(validator: string, signal: UpgradeSignal | null): void {
    if (signal === null) this.signals.delete(validator);
    else this.signals.set(validator, signal);
  }

  /** The pending signatures, in validator-address order. */
  upgradeSignals(): [string, UpgradeSignal][] {
    return this.signals
      .keys()
      .sort()
      .map((k) => [k, this.signals.get(k)!]);
  }

  account(address: string): Account {
    return this.accounts.get(address) ?? EMPTY_ACCOUNT;
  }

  hasAccount(address: string): boolean {
    return this.accounts.get(address) !== undefined;
  }

  setAccount(address: string, account: Account): void {
    this.accounts.set(address, account);
  }

  credit(address: string, amount: bigint): void {
    const a = this.account(address);
    this.setAccount(address, { ...a, balance: a.balance + amount });
  }

  debit(address: string, amount: bigint): void {
    const a = this.account(address);
    if (a.balance < amount) throw new Error(`internal: debit of ${amount} from ${address} exceeds balance`);
    this.setAccount(address, { ...a, balance: a.balance - amount });
  }

  addReward(address: string, epoch: number, amount: bigint): void {
    if (amount === 0n) return;
    const a = this.account(address);
    const history = new Map(a.rewardHistory);
    history.set(epoch, (history.get(epoch) ?? 0n) + amount);
    this.setAccount(address, { ...a, balance: a.balance + amount, rewardHistory: history });
  }

  validator(address: string): Validator | undefined {
    return this.validators.get(address);
  }

  setValidator(v: Validator): void {
    this.validators.set(v.address, v);
  }

  /** Validators in address order. */
  allValidators(): Validator[] {
    return this.validators
      .keys()
      .sort()
      .map((k) => this.validators.get(k)!);
  }

  /** The delegations to one validator, in delegator-address order. */
  delegationsTo(validator: string): Delegation[] {
    const inner = this.delegations.get(validator);
    if (inner === undefined) return [];
    return [...inner.keys()].sort().map((k) => inner.get(k)!);
  }

  delegation(validator: string, delegator: string): Delegation | undefined {
    return this.delegations.get(validator)?.get(delegator);
  }

  setDelegation(d: Delegation): void {
    const inner = new Map(this.delegations.get(d.validator) ?? []);
    if (d.amount === 0n) inner.delete(d.delegator);
    else inner.set(d.delegator, d);
    if (inner.size === 0) this.delegations.delete(d.validator);
    else this.delegations.set(d.validator, inner);
  }

  addUnbonding(entry: Omit<UnbondingEntry, 'seq'>): void {
    const full: UnbondingEntry = { ...entry, seq: this.nextUnbondingSeq++ };
    // Keep (completionHeight, seq) order; a new entry usually belongs at the end.
    let i = this.unbonding.length;
    while (i > 0 && this.unbonding[i - 1]!.completionHeight > full.completionHeight) i--;
    this.unbonding.splice(i, 0, full);
  }

  burn(amount: bigint): void {
    this.totals = { ...this.totals, burned: this.totals.burned + amount };
  }

  fundTreasury(amount: bigint): void {
    this.totals = { ...this.totals, treasury: this.totals.treasury + amount };
  }

  mint(amount: bigint): void {
    this.totals = { ...this.totals, minted: this.totals.minted + amount };
  }

  finish(block: { height: number; hash: string; timestamp: number }): ChainState {
    return {
      params: this.params,
      protocolVersion: this.protocolVersion,
      upgrades: this.upgrades,
      upgradeSignals: this.signals.finish(),
      height: block.height,
      lastBlockHash: block.hash,
      lastTimestamp: block.timestamp,
      accounts: this.accounts.finish(),
      validators: this.validators.finish(),
      delegations: this.delegations.finish(),
      unbonding: this.unbonding,
      nextUnbondingSeq: this.nextUnbondingSeq,
      totals: this.totals,
      genesisHash: this.genesisHash,
    };
  }
}
