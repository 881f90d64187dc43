/**
 * Genesis: the JSON document every node of a network starts from, its checks (each problem
 * names its field), the state it gives, and block 0. Genesis validators start ACTIVE with their
 * stake; the genesis supply is every balance plus every stake plus the treasury (plus, in a
 * fork's genesis, every delegation and unbonding entry: genesisState.ts).
 */
import { ACCOUNT_PREFIX, accountAddressOf, isAddress, validatorAddressOf } from '../crypto/address.js';
import { isValidPublicKeyHex } from '../crypto/keys.js';
import { parseWei, rateToPpm } from './amounts.js';
import { type Block, type BlockHeader, blockHash, computeRoot, txRoot, ZERO_HASH } from './block/header.js';
import { isWellFormed } from './codec/encoding.js';
import { MAX_NAME_BYTES } from './tx/types.js';

const utf8 = new TextEncoder();

import { BASE_PROTOCOL_VERSION } from './block/compatibility.js';
import { checkUpgradePlans } from './block/upgrades.js';
import { paramsFromJson } from './codec/paramsJson.js';
import {
  type GenesisDelegationJson,
  type GenesisRetiredValidatorJson,
  type GenesisUnbondingJson,
  nonceProblem,
  parseDelegations,
  parseRetiredValidators,
  parseUnbonding,
} from './genesisState.js';
import { type ChainParams, checkParams, NETWORK_IDS, NETWORK_PARAMS, type NetworkId } from './params.js';
import { isReservedAddress } from './reserved.js';
import { parseSemVer } from './semver.js';
import { stateRoot } from './state/root.js';
import type { Account, ChainState, UpgradePlan, Validator } from './state/types.js';

/** A genesis without protocol_version starts at the first protocol version. */
export const DEFAULT_PROTOCOL_VERSION = BASE_PROTOCOL_VERSION;

export interface GenesisAccountJson {
  address: string;
  balance: string;
  /** Extension (a fork's genesis): the account's next nonce; default 0. */
  nonce?: number;
}

export interface GenesisValidatorJson {
  pub_key: string;
  stake: string;
  name?: string;
  commission_rate?: number;
  reward_address?: string;
}

export interface GenesisJson {
  network: NetworkId;
  chain_id?: string;
  genesis_time: number;
  protocol_version?: string;
  params?: Record<string, unknown>;
  accounts?: GenesisAccountJson[];
  validators: GenesisValidatorJson[];
  treasury?: string;
  upgrades?: { target_version: string; upgrade_height: number }[];
  /** Extensions for a chain started from another's state (genesisState.ts). */
  retired_validators?: GenesisRetiredValidatorJson[];
  delegations?: GenesisDelegationJson[];
  unbonding?: GenesisUnbondingJson[];
}

export interface Genesis {
  /** The network it is for (devnet, testnet, mainnet). */
  readonly network: NetworkId;
  readonly state: ChainState;
  readonly block: Block;
  readonly hash: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const GENESIS_FIELDS = new Set([
  'network',
  'chain_id',
  'genesis_time',
  'protocol_version',
  'params',
  'accounts',
  'validators',
  'treasury',
  'upgrades',
  'retired_validators',
  'delegations',
  'unbonding',
]);

/** The chain-wide fields: the network's parameters with chain_id and params over them, the time and the protocol version. */
function parseChainFields(json: Record<string, unknown>, network: NetworkId, problems: string[]) {
  let params = NETWORK_PARAMS[network];
  if (json.chain_id !== undefined) {
    if (typeof json.chain_id !== 'string') problems.push('chain_id must be a string');
    else params = { ...params, chainId: json.chain_id };
  }
  if (json.params !== undefined) {
    const p = paramsFromJson(params, json.params);
    if (Array.isArray(p)) problems.push(...p);
    else params = p;
  }
  problems.push(...checkParams(params));
  const genesisTime = json.genesis_time;
  if (typeof genesisTime !== 'number' || !Number.isSafeInteger(genesisTime) || genesisTime < 0)
    problems.push('genesis_time must be Unix seconds (a non-negative integer)');
  const version = json.protocol_version ?? DEFAULT_PROTOCOL_VERSION;
  if (typeof version !== 'string' || parseSemVer(version) === null)
    problems.push('protocol_version must be MAJOR.MINOR.PATCH');
  return { params, genesisTime: genesisTime as number, version: version as string };
}

/** What the genesis holds: accounts, validators (active and retired), delegations, unbonding, treasury, plans. */
function parseHoldings(
  json: Record<string, unknown>,
  params: ChainParams,
  version: string,
  problems: string[],
) {
  const accounts = parseAccounts(json.accounts ?? [], problems);
  const validators = parseValidators(json.validators, params, problems);
  parseRetiredValidators(json.retired_validators, params, validators, problems);
  const delegations = parseDelegations(json.delegations, validators, problems);
  const unbonding = parseUnbonding(json.unbonding, problems);
  const treasury =
    json.treasury === undefined ? 0n : typeof json.treasury === 'string' ? parseWei(json.treasury) : null;
  if (treasury === null) problems.push('treasury must be a decimal string of wei');
  const upgrades = parseUpgrades(json.upgrades ?? [], problems);
  if (typeof version === 'string') problems.push(...checkUpgradePlans(upgrades, version));
  let supply = treasury ?? 0n;
  for (const a of accounts.values()) supply += a.balance;
  for (const v of validators.values()) supply += v.stake + v.totalDelegated;
  for (const u of unbonding) supply += u.amount;
  return { accounts, validators, delegations, unbonding, treasury: treasury ?? 0n, upgrades, supply };
}

/** Block 0: no proposer, no signature, the empty roots, the genesis state's root; its hash names the chain. */
function genesisBlock(state: ChainState, genesisTime: number): Block {
  const header: BlockHeader = {
    chainId: state.params.chainId,
    height: 0,
    round: 0,
    prevHash: ZERO_HASH,
    timestamp: genesisTime,
    proposerAddress: '',
    pubKey: '',
    txRoot: txRoot([], state.params.chainId),
    computeRoot: computeRoot([]),
    stateRoot: stateRoot(state),
    gasUsed: 0,
    gasLimit: state.params.blockGasLimit,
    signature: '',
  };
  return { header, txs: [] };
}

/** Checks a genesis document and builds its state and block 0, or lists every problem found. */
export function loadGenesis(
  json: unknown,
): { ok: true; genesis: Genesis } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (!isObject(json)) return { ok: false, problems: ['genesis must be a JSON object'] };
  for (const k of Object.keys(json)) if (!GENESIS_FIELDS.has(k)) problems.push(`${k} is not a genesis field`);
  const network = json.network;
  if (typeof network !== 'string' || !(NETWORK_IDS as readonly string[]).includes(network))
    return { ok: false, problems: [...problems, `network must be one of ${NETWORK_IDS.join(', ')}`] };
  const { params, genesisTime, version } = parseChainFields(json, network as NetworkId, problems);
  const h = parseHoldings(json, params, version, problems);
  if (problems.length > 0) return { ok: false, problems };
  const state: ChainState = {
    params,
    protocolVersion: version,
    upgrades: h.upgrades,
    height: 0,
    lastBlockHash: '',
    lastTimestamp: genesisTime,
    accounts: h.accounts,
    validators: h.validators,
    delegations: h.delegations,
    unbonding: h.unbonding,
    nextUnbondingSeq: h.unbonding.length,
    upgradeSignals: new Map(),
    totals: { genesisSupply: h.supply, minted: 0n, burned: 0n, treasury: h.treasury },
    // Block 1 names it (block/genesisName.ts): block 0's hash covers this state's root.
    genesisHash: null,
  };
  const block = genesisBlock(state, genesisTime);
  const hash = blockHash(block.header);
  return {
    ok: true,
    genesis: { network: network as NetworkId, state: { ...state, lastBlockHash: hash }, block, hash },
  };
}

function parseAccounts(list: unknown, problems: string[]): Map<string, Account> {
  const accounts = new Map<string, Account>();
  if (!Array.isArray(list)) {
    problems.push('accounts must be an array');
    return accounts;
  }
  for (const [i, a] of list.entries()) {
    const at = `accounts[${i}]`;
    const balance = isObject(a) && typeof a.balance === 'string' ? parseWei(a.balance) : null;
    if (!isObject(a)) problems.push(`${at} must be an object`);
    else if (typeof a.address !== 'string' || !isAddress(a.address, ACCOUNT_PREFIX))
      problems.push(`${at}.address must be a coin1 address`);
    else if (balance === null) problems.push(`${at}.balance must be a decimal string of wei`);
    else if (accounts.has(a.address)) problems.push(`${at}.address ${a.address} is listed twice`);
    else if (nonceProblem(a.nonce) !== null) problems.push(`${at}.${nonceProblem(a.nonce)}`);
    else if (isReservedAddress(a.address))
      problems.push(
        `${at}.address ${a.address} is a reserved address (burn or treasury): no account may be there`,
      );
    else
      accounts.set(a.address, {
        balance,
        nonce: (a.nonce as number | undefined) ?? 0,
        rewardHistory: new Map(),
      });
  }
  return accounts;
}

/** The problem with one genesis validator entry, or null. */
function validatorProblem(v: Record<string, unknown>, params: ChainParams): string | null {
  if (typeof v.pub_key !== 'string' || !isValidPublicKeyHex(v.pub_key))
    return 'pub_key must be a compressed secp256k1 public key (66 lowercase hex)';
  const stake = typeof v.stake === 'string' ? parseWei(v.stake) : null;
  if (stake === null) return 'stake must be a decimal string of wei';
  if (stake < params.minStake) return `stake ${stake} is below min_stake ${params.minStake}`;
  if (v.commission_rate !== undefined) {
    const ppm = typeof v.commission_rate === 'number' ? rateToPpm(v.commission_rate) : null;
    if (ppm === null || ppm > 1_000_000)
      return 'commission_rate must be a number from 0 to 1 with at most 6 decimals';
  }
  if (
    v.name !== undefined &&
    (typeof v.name !== 'string' ||
      !isWellFormed(v.name) ||
      v.name === '' ||
      utf8.encode(v.name).length > MAX_NAME_BYTES)
  )
    return `name must be a well-formed string of 1 to ${MAX_NAME_BYTES} bytes (as in STAKE)`;
  if (
    v.reward_address !== undefined &&
    (typeof v.reward_address !== 'string' || !isAddress(v.reward_address, ACCOUNT_PREFIX))
  )
    return 'reward_address must be a coin1 address';
  if (typeof v.reward_address === 'string' && isReservedAddress(v.reward_address))
    return 'reward_address must not be a reserved address (burn or treasury)';
  return null;
}

function parseValidators(list: unknown, params: ChainParams, problems: string[]): Map<string, Validator> {
  const validators = new Map<string, Validator>();
  if (!Array.isArray(list) || list.length === 0) {
    problems.push('validators must be a non-empty array');
    return validators;
  }
  for (const [i, v] of list.entries()) {
    const at = `validators[${i}]`;
    if (!isObject(v)) {
      problems.push(`${at} must be an object`);
      continue;
    }
    const problem = validatorProblem(v, params);
    if (problem !== null) {
      problems.push(`${at}.${problem}`);
      continue;
    }
    const pubKey = v.pub_key as string;
    const address = validatorAddressOf(pubKey);
    if (validators.has(address)) {
      problems.push(`${at}.pub_key is listed twice`);
      continue;
    }
    const operator = accountAddressOf(pubKey);
    validators.set(address, {
      address,
      pubKey,
      operator,
      rewardAddress: (v.reward_address as string | undefined) ?? operator,
      name: (v.name as string | undefined) ?? '',
      commissionPpm:
        v.commission_rate === undefined
          ? params.defaultCommissionPpm
          : rateToPpm(v.commission_rate as number)!,
      stake: parseWei(v.stake as string)!,
      totalDelegated: 0n,
      status: 'ACTIVE',
      jailCount: 0,
      registeredHeight: 0,
      slotsProduced: 0,
      slotsMissed: 0,
    });
  }
  if (validators.size > params.maxValidators)
    problems.push(`validators: ${validators.size} exceed max_validators ${params.maxValidators}`);
  return validators;
}

function parseUpgrades(list: unknown, problems: string[]): UpgradePlan[] {
  const upgrades: UpgradePlan[] = [];
  if (!Array.isArray(list)) {
    problems.push('upgrades must be an array');
    return upgrades;
  }
  for (const [i, u] of list.entries()) {
    if (!isObject(u) || typeof u.target_version !== 'string' || typeof u.upgrade_height !== 'number')
      problems.push(`upgrades[${i}] must be {target_version: string, upgrade_height: integer}`);
    else upgrades.push({ targetVersion: u.target_version, upgradeHeight: u.upgrade_height });
  }
  return upgrades;
}
