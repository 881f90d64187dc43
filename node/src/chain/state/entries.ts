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
 * Entries sort by key bytes. docs/PROTOCOL.md gives every value's layout; stateBuilder.ts reads
 * them back.
 */
import { Writer } from '../codec/encoding.js';
import { writeParams } from './paramsCodec.js';
import {
  type Account,
  type ChainState,
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

/** A validator's status by its byte in `v/`. */
export const STATUSES: readonly ValidatorStatus[] = ['INACTIVE', 'ACTIVE', 'JAILED', 'EJECTED'];

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

/** An upgrade signal's kind by its byte in `s/`. */
export const SIGNAL_KINDS = ['plan', 'cancel'] as const;

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
