/**
 * A state rebuilt from its entries (entries.ts has their layout), one entry at a time: from the
 * store's list at start, or from a snapshot's content as it is inflated (snapshotStream.ts), so
 * that a large state is never held twice. Throws DecodeError on anything malformed, unknown or out
 * of key order.
 */
import { DecodeError, Reader } from '../codec/encoding.js';
import { SIGNAL_KINDS, STATUSES, type StateEntry, unbondingKey } from './entries.js';
import { readParams } from './paramsCodec.js';
import {
  type Account,
  type ChainState,
  compareStrings,
  type Delegation,
  type UnbondingEntry,
  type UpgradeSignal,
  type Validator,
} from './types.js';

/** Where the state sits in the chain; carried beside the entries, outside the state root. */
export interface ChainPosition {
  readonly height: number;
  readonly lastBlockHash: string;
  readonly lastTimestamp: number;
}

type Globals = Pick<ChainState, 'protocolVersion' | 'totals' | 'nextUnbondingSeq' | 'upgrades'>;

export class StateBuilder {
  private readonly accounts = new Map<string, Account>();
  private readonly validators = new Map<string, Validator>();
  private readonly delegations = new Map<string, Map<string, Delegation>>();
  private readonly unbonding: UnbondingEntry[] = [];
  private readonly upgradeSignals = new Map<string, UpgradeSignal>();
  private globals: Globals | undefined;
  private params: ChainState['params'] | undefined;
  private genesisHash: string | null = null;
  private previous: string | undefined;

  /** The next entry, in key order. */
  add({ key, value }: StateEntry): void {
    if (this.previous !== undefined && compareStrings(this.previous, key) >= 0)
      throw new DecodeError(`entry ${key} out of order`);
    this.previous = key;
    const r = new Reader(value);
    const [kind, ...rest] = key.split('/');
    if (kind === 'a' && rest.length === 1) this.account(rest[0]!, r);
    else if (key === 'c/') this.genesisHash = r.rawHex(32);
    else if (kind === 'd' && rest.length === 2) this.delegation(rest[0]!, rest[1]!, r);
    else if (key === 'g/') this.globals = readGlobals(r);
    else if (key === 'p/') this.params = readParams(r);
    else if (kind === 's' && rest.length === 1) this.signal(key, rest[0]!, r);
    else if (kind === 'u' && rest.length === 1) this.unbondingEntry(key, rest[0]!, r);
    else if (kind === 'v' && rest.length === 1) this.validator(key, rest[0]!, r);
    else throw new DecodeError(`unknown entry key ${key}`);
    r.end();
  }

  finish(position: ChainPosition): ChainState {
    if (this.globals === undefined || this.params === undefined)
      throw new DecodeError('state has no g/ or p/ entry');
    this.unbonding.sort((x, y) => x.completionHeight - y.completionHeight || x.seq - y.seq);
    return {
      ...this.globals,
      ...position,
      params: this.params,
      accounts: this.accounts,
      validators: this.validators,
      delegations: this.delegations,
      unbonding: this.unbonding,
      upgradeSignals: this.upgradeSignals,
      genesisHash: this.genesisHash,
    };
  }

  private account(address: string, r: Reader): void {
    const balance = r.u256();
    const nonce = r.u64();
    const history = new Map<number, bigint>();
    for (let n = r.u32(), i = 0; i < n; i++) history.set(r.u64(), r.u256());
    this.accounts.set(address, { balance, nonce, rewardHistory: history });
  }

  private delegation(validator: string, delegator: string, r: Reader): void {
    const d: Delegation = { validator, delegator, amount: r.u256(), createdHeight: r.u64() };
    const inner = this.delegations.get(validator) ?? new Map<string, Delegation>();
    inner.set(delegator, d);
    this.delegations.set(validator, inner);
  }

  private signal(key: string, validator: string, r: Reader): void {
    const kind = SIGNAL_KINDS[r.u8()];
    if (kind === undefined) throw new DecodeError(`bad upgrade signal kind in ${key}`);
    const plan = { targetVersion: r.str(), upgradeHeight: r.u64() };
    this.upgradeSignals.set(validator, { kind, plan, signedHeight: r.u64() });
  }

  private unbondingEntry(key: string, hexSeq: string, r: Reader): void {
    const seq = Number.parseInt(hexSeq, 16);
    if (unbondingKey(seq) !== key) throw new DecodeError(`malformed key ${key}`);
    this.unbonding.push({
      seq,
      delegator: r.str(),
      validator: r.str(),
      amount: r.u256(),
      creationHeight: r.u64(),
      completionHeight: r.u64(),
    });
  }

  private validator(key: string, address: string, r: Reader): void {
    const pubKey = r.rawHex(33);
    const operator = r.str();
    const rewardAddress = r.str();
    const name = r.str();
    const commissionPpm = r.u32();
    const stake = r.u256();
    const totalDelegated = r.u256();
    const status = STATUSES[r.u8()];
    if (status === undefined) throw new DecodeError(`bad validator status in ${key}`);
    this.validators.set(address, {
      address,
      pubKey,
      operator,
      rewardAddress,
      name,
      commissionPpm,
      stake,
      totalDelegated,
      status,
      jailCount: r.u32(),
      registeredHeight: r.u64(),
      slotsProduced: r.u64(),
      slotsMissed: r.u64(),
    });
  }
}

function readGlobals(r: Reader): Globals {
  const protocolVersion = r.str();
  const totals = { genesisSupply: r.u256(), minted: r.u256(), burned: r.u256(), treasury: r.u256() };
  const nextUnbondingSeq = r.u64();
  const upgrades = [];
  for (let n = r.u32(), i = 0; i < n; i++) upgrades.push({ targetVersion: r.str(), upgradeHeight: r.u64() });
  return { protocolVersion, totals, nextUnbondingSeq, upgrades };
}

/** Rebuilds a state from its entries; throws DecodeError on anything malformed or out of order. */
export function stateFromEntries(entries: readonly StateEntry[], position: ChainPosition): ChainState {
  const builder = new StateBuilder();
  for (const e of entries) builder.add(e);
  return builder.finish(position);
}
