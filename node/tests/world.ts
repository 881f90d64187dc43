/**
 * Before-states built by hand for table tests: a genesis with the validator `val-0`, plus the
 * accounts, nonces, validators (any status) and delegations a row describes. States are plain
 * immutable values, so a row can start where a real chain would need epochs to get to.
 */
import {
  type ChainState,
  type Delegation,
  EMPTY_ACCOUNT,
  type UpgradePlan,
  type ValidatorStatus,
} from '../src/chain/index.js';
import { genesisState, key, TestChain } from './fixtures.js';

export interface ValidatorSpec {
  readonly stake: bigint;
  readonly status: ValidatorStatus;
  readonly jailCount?: number;
  readonly slotsProduced?: number;
  readonly slotsMissed?: number;
}

export interface World {
  /** label -> wei */
  readonly accounts?: Readonly<Record<string, bigint>>;
  /** label -> account nonce (default 0) */
  readonly nonces?: Readonly<Record<string, number>>;
  /**
   * Validators besides the genesis `val-0`, registered at height 0 with name = label,
   * commission 10%, reward address = operator account.
   */
  readonly validators?: Readonly<Record<string, ValidatorSpec>>;
  /** [delegator label, validator label, wei], created at height 0. */
  readonly delegations?: readonly (readonly [string, string, bigint])[];
  readonly params?: Record<string, unknown>;
  /** Upgrade plans scheduled (as a genesis lists them). */
  readonly upgrades?: readonly UpgradePlan[];
}

/** The state described by `w`; supply totals are adjusted so that conservation still holds. */
export function build(w: World): ChainState {
  const g = genesisState({ validators: ['val-0'], accounts: w.accounts ?? {}, params: w.params ?? {} });
  const accounts = new Map(g.accounts);
  for (const [label, nonce] of Object.entries(w.nonces ?? {})) {
    const a = accounts.get(key(label).account) ?? EMPTY_ACCOUNT;
    accounts.set(key(label).account, { ...a, nonce });
  }
  const validators = new Map(g.validators);
  let added = 0n;
  for (const [label, spec] of Object.entries(w.validators ?? {})) {
    const k = key(label);
    const defaultJails = spec.status === 'JAILED' ? 1 : spec.status === 'EJECTED' ? 3 : 0;
    validators.set(k.validator, {
      address: k.validator,
      pubKey: k.pubKey,
      operator: k.account,
      rewardAddress: k.account,
      name: label,
      commissionPpm: 100_000,
      stake: spec.stake,
      totalDelegated: 0n,
      status: spec.status,
      jailCount: spec.jailCount ?? defaultJails,
      registeredHeight: 0,
      slotsProduced: spec.slotsProduced ?? 0,
      slotsMissed: spec.slotsMissed ?? 0,
    });
    added += spec.stake;
  }
  const delegations = new Map<string, Map<string, Delegation>>();
  for (const [delegator, validator, amount] of w.delegations ?? []) {
    const v = validators.get(key(validator).validator);
    if (v === undefined) throw new Error(`world: no validator ${validator}`);
    validators.set(v.address, { ...v, totalDelegated: v.totalDelegated + amount });
    const inner = delegations.get(v.address) ?? new Map<string, Delegation>();
    inner.set(key(delegator).account, {
      delegator: key(delegator).account,
      validator: v.address,
      amount,
      createdHeight: 0,
    });
    delegations.set(v.address, inner);
    added += amount;
  }
  return {
    ...g,
    accounts,
    validators,
    delegations,
    upgrades: w.upgrades ?? g.upgrades,
    totals: { ...g.totals, genesisSupply: g.totals.genesisSupply + added },
  };
}

export const chainOf = (w: World) => new TestChain(build(w), [], ['val-0']);
export const acct = (label: string) => key(label).account;
export const valAddr = (label: string) => key(label).validator;
