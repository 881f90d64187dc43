/**
 * The state entries that changed between two states, for storing one block's effect instead of
 * the whole state. Unchanged entries are the very same objects in both states (drafts share
 * them), so an identity check finds the changes without encoding anything that did not change.
 */

import type { StateEntry } from './entries.js';
import {
  encodeAccount,
  encodeDelegation,
  encodeUnbonding,
  encodeUpgradeSignal,
  encodeValidator,
  stateEntries,
  unbondingKey,
} from './entries.js';
import type { ChainState } from './types.js';

export interface StateDiff {
  readonly put: StateEntry[];
  readonly del: string[];
}

function diffMap<V>(
  prefix: string,
  before: ReadonlyMap<string, V>,
  after: ReadonlyMap<string, V>,
  encode: (v: V) => Uint8Array,
  out: StateDiff,
): void {
  if (before === after) return;
  for (const [k, v] of after)
    if (before.get(k) !== v) out.put.push({ key: `${prefix}${k}`, value: encode(v) });
  for (const k of before.keys()) if (!after.has(k)) out.del.push(`${prefix}${k}`);
}

export function stateDiff(before: ChainState, after: ChainState): StateDiff {
  const out: StateDiff = { put: [], del: [] };
  diffMap('a/', before.accounts, after.accounts, encodeAccount, out);
  diffMap('v/', before.validators, after.validators, encodeValidator, out);
  diffMap('s/', before.upgradeSignals, after.upgradeSignals, encodeUpgradeSignal, out);
  if (before.delegations !== after.delegations) {
    const empty = new Map();
    const validators = new Set([...before.delegations.keys(), ...after.delegations.keys()]);
    for (const val of validators) {
      diffMap(
        `d/${val}/`,
        before.delegations.get(val) ?? empty,
        after.delegations.get(val) ?? empty,
        encodeDelegation,
        out,
      );
    }
  }
  if (before.unbonding !== after.unbonding) {
    const kept = new Set(after.unbonding.map((u) => u.seq));
    for (const u of before.unbonding) if (!kept.has(u.seq)) out.del.push(unbondingKey(u.seq));
    const had = new Set(before.unbonding.map((u) => u.seq));
    for (const u of after.unbonding)
      if (!had.has(u.seq)) out.put.push({ key: unbondingKey(u.seq), value: encodeUnbonding(u) });
  }
  // Globals and parameters are small: always written.
  for (const e of stateEntries({
    ...after,
    accounts: new Map(),
    validators: new Map(),
    delegations: new Map(),
    unbonding: [],
    upgradeSignals: new Map(),
  })) {
    out.put.push(e);
  }
  return out;
}

/** Every entry, for the first write of a state (genesis, or a state restored from a snapshot). */
export function fullStateDiff(s: ChainState): StateDiff {
  return { put: stateEntries(s), del: [] };
}
