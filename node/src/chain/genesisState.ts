/**
 * The genesis extension for a chain that starts from another chain's state (issue 27, a devnet
 * forked from a running network; docs/PROTOCOL.md "Genesis", docs/RULES.md "A fork's genesis"):
 * retired validators (INACTIVE, no stake: the fork's own validators replaced them), delegations
 * and unbonding entries. Each problem names its field. Accounts' nonces are read with the
 * accounts (genesis.ts). Pure.
 */
import {
  ACCOUNT_PREFIX,
  accountAddressOf,
  isAddress,
  VALIDATOR_PREFIX,
  validatorAddressOf,
} from '../crypto/address.js';
import { isValidPublicKeyHex } from '../crypto/keys.js';
import { parseWei, rateToPpm } from './amounts.js';
import type { ChainParams } from './params.js';
import type { Delegation, UnbondingEntry, Validator } from './state/types.js';
import { MAX_NAME_BYTES } from './tx/types.js';

export interface GenesisRetiredValidatorJson {
  pub_key: string;
  name?: string;
  commission_rate?: number;
  reward_address?: string;
  jail_count?: number;
}

export interface GenesisDelegationJson {
  delegator: string;
  validator: string;
  amount: string;
  created_height?: number;
}

export interface GenesisUnbondingJson {
  delegator: string;
  validator: string;
  amount: string;
  creation_height?: number;
  completion_height: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const utf8 = new TextEncoder();

/** `list` as an array of objects, or a problem pushed (named `field`). */
function objects(list: unknown, field: string, problems: string[]): Record<string, unknown>[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    problems.push(`${field} must be an array`);
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const [i, x] of list.entries()) {
    if (isObject(x)) out.push(x);
    else problems.push(`${field}[${i}] must be an object`);
  }
  return out.length === list.length ? out : [];
}

/** Retired validators: INACTIVE with no stake, their delegations kept (the fork's validators replaced them). */
export function parseRetiredValidators(
  list: unknown,
  params: ChainParams,
  into: Map<string, Validator>,
  problems: string[],
): void {
  for (const [i, v] of objects(list, 'retired_validators', problems).entries()) {
    const at = `retired_validators[${i}]`;
    if (typeof v.pub_key !== 'string' || !isValidPublicKeyHex(v.pub_key)) {
      problems.push(`${at}.pub_key must be a compressed secp256k1 public key (66 lowercase hex)`);
      continue;
    }
    const address = validatorAddressOf(v.pub_key);
    if (into.has(address)) {
      problems.push(`${at}.pub_key is also a validator's (or listed twice)`);
      continue;
    }
    const ppm =
      v.commission_rate === undefined ? params.defaultCommissionPpm : rateToPpm(v.commission_rate as number);
    if (ppm === null || ppm > 1_000_000) problems.push(`${at}.commission_rate must be a number from 0 to 1`);
    else if (
      v.name !== undefined &&
      (typeof v.name !== 'string' || utf8.encode(v.name).length > MAX_NAME_BYTES)
    )
      problems.push(`${at}.name must be a string of at most ${MAX_NAME_BYTES} bytes`);
    else if (
      v.reward_address !== undefined &&
      (typeof v.reward_address !== 'string' || !isAddress(v.reward_address, ACCOUNT_PREFIX))
    )
      problems.push(`${at}.reward_address must be a coin1 address`);
    else if (v.jail_count !== undefined && !isCount(v.jail_count))
      problems.push(`${at}.jail_count must be a non-negative integer`);
    else {
      const operator = accountAddressOf(v.pub_key);
      into.set(address, {
        address,
        pubKey: v.pub_key,
        operator,
        rewardAddress: (v.reward_address as string | undefined) ?? operator,
        name: (v.name as string | undefined) ?? '',
        commissionPpm: ppm,
        stake: 0n,
        totalDelegated: 0n,
        status: 'INACTIVE',
        jailCount: (v.jail_count as number | undefined) ?? 0,
        registeredHeight: 0,
        slotsProduced: 0,
        slotsMissed: 0,
      });
    }
  }
}

/** The common fields of a delegation and an unbonding entry, or the problem (field named). */
function entryProblem(e: Record<string, unknown>): string | null {
  if (typeof e.delegator !== 'string' || !isAddress(e.delegator, ACCOUNT_PREFIX))
    return 'delegator must be a coin1 address';
  if (typeof e.validator !== 'string' || !isAddress(e.validator, VALIDATOR_PREFIX))
    return 'validator must be a coinvalcons1 address';
  const amount = typeof e.amount === 'string' ? parseWei(e.amount) : null;
  if (amount === null || amount === 0n) return 'amount must be a positive decimal string of wei';
  return null;
}

/** Delegations by validator, each to a listed validator (active or retired), whose totals they set. */
export function parseDelegations(
  list: unknown,
  validators: Map<string, Validator>,
  problems: string[],
): Map<string, Map<string, Delegation>> {
  const out = new Map<string, Map<string, Delegation>>();
  for (const [i, d] of objects(list, 'delegations', problems).entries()) {
    const at = `delegations[${i}]`;
    const problem = entryProblem(d);
    const v = typeof d.validator === 'string' ? validators.get(d.validator) : undefined;
    if (problem !== null) problems.push(`${at}.${problem}`);
    else if (v === undefined) problems.push(`${at}.validator ${String(d.validator)} is no listed validator`);
    else if (d.created_height !== undefined && !isCount(d.created_height))
      problems.push(`${at}.created_height must be a non-negative integer`);
    else if (out.get(v.address)?.has(d.delegator as string))
      problems.push(`${at}: ${String(d.delegator)} delegates to ${v.address} twice`);
    else {
      const amount = parseWei(d.amount as string)!;
      const inner = out.get(v.address) ?? new Map<string, Delegation>();
      inner.set(d.delegator as string, {
        delegator: d.delegator as string,
        validator: v.address,
        amount,
        createdHeight: (d.created_height as number | undefined) ?? 0,
      });
      out.set(v.address, inner);
      validators.set(v.address, { ...v, totalDelegated: v.totalDelegated + amount });
    }
  }
  return out;
}

/** Unbonding entries, numbered in the listed order, sorted by (completion height, number). */
export function parseUnbonding(list: unknown, problems: string[]): UnbondingEntry[] {
  const out: UnbondingEntry[] = [];
  for (const [i, u] of objects(list, 'unbonding', problems).entries()) {
    const at = `unbonding[${i}]`;
    const problem = entryProblem(u);
    if (problem !== null) problems.push(`${at}.${problem}`);
    else if (u.creation_height !== undefined && !isCount(u.creation_height))
      problems.push(`${at}.creation_height must be a non-negative integer`);
    else if (!isCount(u.completion_height) || u.completion_height < 1)
      problems.push(`${at}.completion_height must be a positive integer`);
    else
      out.push({
        seq: i,
        delegator: u.delegator as string,
        validator: u.validator as string,
        amount: parseWei(u.amount as string)!,
        creationHeight: (u.creation_height as number | undefined) ?? 0,
        completionHeight: u.completion_height,
      });
  }
  return out.sort((a, b) => a.completionHeight - b.completionHeight || a.seq - b.seq);
}

/** A genesis account's nonce (default 0), or the problem. */
export function nonceProblem(nonce: unknown): string | null {
  return nonce === undefined || isCount(nonce) ? null : 'nonce must be a non-negative integer';
}
