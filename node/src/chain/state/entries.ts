/**
 * The state as a sorted list of (key, value) entries: the one encoding behind both the state
 * root (a Merkle tree over the entries) and snapshots (the entries in a file). Keys:
 *   a/<coin address>                    account
 *   c/                                   the chain's genesis hash (from protocol 1.2.0, height >= 1)
 *   d/<validator address>/<delegator>    delegation
 *   g/                                   globals (version, totals, unbonding counter, upgrades)
 *   p/                                   chain parameters
 *   s/<validator address>                upgrade signal (extension: only while one is pending)
 *   u/<seq, 16 hex digits>               unbonding entry
 *   v/<validator address>                validator
 * Entries sort by key bytes. docs/PROTOCOL.md gives every value's layout.
 */
import { DecodeError, Reader, Writer } from '../codec/encoding.js';
import { readParams, writeParams } from './paramsCodec.js';
import {
  type Account,
  type ChainState,
  compareStrings,
  type Delegation,
  sortedKeys,
  type UnbondingEntry,
  type UpgradeSignal,
  type Validator,
  type ValidatorStatus,
} from './types.js';

export interface StateEntry {
  readonly key: string;
  readonly value: Uint8Array;
}

const STATUSES: readonly ValidatorStatus[] = ['INACTIVE', 'ACTIVE', 'JAILED', 'EJECTED'];

export function encodeAccount(a: Account): Uint8Array {
  const w = new Writer().u256(a.balance).u64(a.nonce);
  const epochs = [...a.rewardHistory.keys()].sort((x, y) => x - y);
  w.u32(epochs.length);
  for (const e of epochs) w.u64(e).u256(a.rewardHistory.get(e)!);
  return w.finish();
}

export function encodeValidator(v: Validator): Uint8Array {
  return new Writer()
    .rawHex(v.pubKey, 33)
    .str(v.operator)
    .str(v.rewardAddress)
    .str(v.name)
    .u32(v.commissionPpm)
    .u256(v.stake)
    .u256(v.totalDelegated)
    .u8(STATUSES.indexOf(v.status))
    .u32(v.jailCount)
    .u64(v.registeredHeight)
    .u64(v.slotsProduced)
    .u64(v.slotsMissed)
    .finish();
}

export function encodeDelegation(d: Delegation): Uint8Array {
  return new Writer().u256(d.amount).u64(d.createdHeight).finish();
}

export function encodeUnbonding(u: UnbondingEntry): Uint8Array {
  return new Writer()
    .str(u.delegator)
    .str(u.validator)
    .u256(u.amount)
    .u64(u.creationHeight)
    .u64(u.completionHeight)
    .finish();
}

function encodeGlobals(s: ChainState): Uint8Array {
  const w = new Writer()
    .str(s.protocolVersion)
    .u256(s.totals.genesisSupply)
    .u256(s.totals.minted)
    .u256(s.totals.burned)
    .u256(s.totals.treasury)
    .u64(s.nextUnbondingSeq)
    .u32(s.upgrades.length);
  for (const u of s.upgrades) w.str(u.targetVersion).u64(u.upgradeHeight);
  return w.finish();
}

/** `c/`: the 32 bytes of the chain's block 0 hash. */
export function encodeGenesisHash(hash: string): Uint8Array {
  return new Writer().rawHex(hash, 32).finish();
}

const SIGNAL_KINDS = ['plan', 'cancel'] as const;

export function encodeUpgradeSignal(s: UpgradeSignal): Uint8Array {
  return new Writer()
    .u8(SIGNAL_KINDS.indexOf(s.kind))
    .str(s.plan.targetVersion)
    .u64(s.plan.upgradeHeight)
    .u64(s.signedHeight)
    .finish();
}

export function unbondingKey(seq: number): string {
  return `u/${seq.toString(16).padStart(16, '0')}`;
}

/**
 * Calls `visit` for every entry in key order, with the object the value was encoded from
 * (the state root uses it to cache leaf hashes of unchanged entries).
 */
export function forEachEntry(
  s: ChainState,
  visit: (key: string, source: object | null, encode: () => Uint8Array) => void,
): void {
  for (const addr of sortedKeys(s.accounts)) {
    const a = s.accounts.get(addr)!;
    visit(`a/${addr}`, a, () => encodeAccount(a));
  }
  const genesis = s.genesisHash;
  if (genesis !== null) visit('c/', null, () => encodeGenesisHash(genesis));
  for (const val of sortedKeys(s.delegations)) {
    const inner = s.delegations.get(val)!;
    for (const del of sortedKeys(inner)) {
      const d = inner.get(del)!;
      visit(`d/${val}/${del}`, d, () => encodeDelegation(d));
    }
  }
  visit('g/', null, () => encodeGlobals(s));
  visit('p/', s.params, () => {
    const w = new Writer();
    writeParams(w, s.params);
    return w.finish();
  });
  for (const addr of sortedKeys(s.upgradeSignals)) {
    const sig = s.upgradeSignals.get(addr)!;
    visit(`s/${addr}`, sig, () => encodeUpgradeSignal(sig));
  }
  const bySeq = [...s.unbonding].sort((x, y) => x.seq - y.seq);
  for (const u of bySeq) visit(unbondingKey(u.seq), u, () => encodeUnbonding(u));
  for (const addr of sortedKeys(s.validators)) {
    const v = s.validators.get(addr)!;
    visit(`v/${addr}`, v, () => encodeValidator(v));
  }
}

export function stateEntries(s: ChainState): StateEntry[] {
  const out: StateEntry[] = [];
  forEachEntry(s, (key, _source, encode) => out.push({ key, value: encode() }));
  return out;
}

/** Where the state sits in the chain; carried beside the entries, outside the state root. */
export interface ChainPosition {
  readonly height: number;
  readonly lastBlockHash: string;
  readonly lastTimestamp: number;
}

/** Rebuilds a state from its entries; throws DecodeError on anything malformed or out of order. */
export function stateFromEntries(entries: readonly StateEntry[], position: ChainPosition): ChainState {
  const accounts = new Map<string, Account>();
  const validators = new Map<string, Validator>();
  const delegations = new Map<string, Map<string, Delegation>>();
  const unbonding: UnbondingEntry[] = [];
  const upgradeSignals = new Map<string, UpgradeSignal>();
  let globals:
    | Omit<
        ChainState,
        | 'params'
        | 'accounts'
        | 'validators'
        | 'delegations'
        | 'unbonding'
        | 'upgradeSignals'
        | 'genesisHash'
        | keyof ChainPosition
      >
    | undefined;
  let params: ChainState['params'] | undefined;
  let genesisHash: string | null = null;
  let previous: string | undefined;
  for (const { key, value } of entries) {
    if (previous !== undefined && compareStrings(previous, key) >= 0)
      throw new DecodeError(`entry ${key} out of order`);
    previous = key;
    const r = new Reader(value);
    const [kind, ...rest] = key.split('/');
    if (kind === 'a' && rest.length === 1) {
      const balance = r.u256();
      const nonce = r.u64();
      const history = new Map<number, bigint>();
      for (let n = r.u32(), i = 0; i < n; i++) history.set(r.u64(), r.u256());
      accounts.set(rest[0]!, { balance, nonce, rewardHistory: history });
    } else if (key === 'c/') {
      genesisHash = r.rawHex(32);
    } else if (kind === 'd' && rest.length === 2) {
      const [validator, delegator] = rest as [string, string];
      const d: Delegation = { validator, delegator, amount: r.u256(), createdHeight: r.u64() };
      const inner = delegations.get(validator) ?? new Map<string, Delegation>();
      inner.set(delegator, d);
      delegations.set(validator, inner);
    } else if (key === 'g/') {
      const protocolVersion = r.str();
      const totals = { genesisSupply: r.u256(), minted: r.u256(), burned: r.u256(), treasury: r.u256() };
      const nextUnbondingSeq = r.u64();
      const upgrades = [];
      for (let n = r.u32(), i = 0; i < n; i++)
        upgrades.push({ targetVersion: r.str(), upgradeHeight: r.u64() });
      globals = { protocolVersion, totals, nextUnbondingSeq, upgrades };
    } else if (key === 'p/') {
      params = readParams(r);
    } else if (kind === 's' && rest.length === 1) {
      const signalKind = SIGNAL_KINDS[r.u8()];
      if (signalKind === undefined) throw new DecodeError(`bad upgrade signal kind in ${key}`);
      const plan = { targetVersion: r.str(), upgradeHeight: r.u64() };
      upgradeSignals.set(rest[0]!, { kind: signalKind, plan, signedHeight: r.u64() });
    } else if (kind === 'u' && rest.length === 1) {
      const seq = Number.parseInt(rest[0]!, 16);
      if (unbondingKey(seq) !== key) throw new DecodeError(`malformed key ${key}`);
      unbonding.push({
        seq,
        delegator: r.str(),
        validator: r.str(),
        amount: r.u256(),
        creationHeight: r.u64(),
        completionHeight: r.u64(),
      });
    } else if (kind === 'v' && rest.length === 1) {
      const pubKey = r.rawHex(33);
      const operator = r.str();
      const rewardAddress = r.str();
      const name = r.str();
      const commissionPpm = r.u32();
      const stake = r.u256();
      const totalDelegated = r.u256();
      const status = STATUSES[r.u8()];
      if (status === undefined) throw new DecodeError(`bad validator status in ${key}`);
      validators.set(rest[0]!, {
        address: rest[0]!,
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
    } else {
      throw new DecodeError(`unknown entry key ${key}`);
    }
    r.end();
  }
  if (globals === undefined || params === undefined) throw new DecodeError('state has no g/ or p/ entry');
  unbonding.sort((x, y) => x.completionHeight - y.completionHeight || x.seq - y.seq);
  return {
    ...globals,
    ...position,
    params,
    accounts,
    validators,
    delegations,
    unbonding,
    upgradeSignals,
    genesisHash,
  };
}
