/**
 * The genesis of a devnet forked from a running network (`devnet up --fork`), from the source's
 * verified state at height H and the genesis the devnet would have made on its own (its
 * validators, funded accounts, parameters, time). The rule, in docs/RULES.md ("A fork's
 * genesis"): every account with its balance and nonce; every source validator's self-stake back
 * to its operator's balance and the validator retired (INACTIVE, no stake) unless the devnet's
 * own set names its key; every delegation kept; every unbonding entry kept with its remaining
 * blocks (completion height − H); the treasury kept; the devnet's validators (ACTIVE, with their
 * stake) and funded accounts added (a balance added to an account that exists). Pure.
 */
import {
  type ChainState,
  type GenesisAccountJson,
  type GenesisJson,
  paramsToJson,
  ppmToRate,
  sortedKeys,
} from '@chain-devnet/node/chain';
import { validatorAddressOf } from '@chain-devnet/node/crypto';

/** The fork's chain id: the source's with `-fork-H` (a fork is never taken for its source on p2p). */
export const forkChainId = (sourceChainId: string, height: number): string =>
  `${sourceChainId}-fork-${height}`;

/** Where the fork's supply comes from (docs/RULES.md): all four in wei. */
export interface ForkSupply {
  /** What the source held at H: balances + stakes + delegations + unbonding + treasury. */
  readonly carried: bigint;
  /** The devnet's funded accounts (its validators' fee accounts included). */
  readonly accounts: bigint;
  /** The devnet's validators' stakes. */
  readonly stakes: bigint;
  /** The fork's genesis supply: the three above. */
  readonly total: bigint;
}

/** What the source's state at H holds in all (its genesis supply + minted − burned, by the conservation rule). */
export function heldBy(s: ChainState): bigint {
  let sum = s.totals.treasury;
  for (const a of s.accounts.values()) sum += a.balance;
  for (const v of s.validators.values()) sum += v.stake + v.totalDelegated;
  for (const u of s.unbonding) sum += u.amount;
  return sum;
}

export function forkSupply(source: ChainState, own: GenesisJson): ForkSupply {
  const accounts = (own.accounts ?? []).reduce((t, a) => t + BigInt(a.balance), 0n);
  const stakes = own.validators.reduce((t, v) => t + BigInt(v.stake), 0n);
  const carried = heldBy(source);
  return { carried, accounts, stakes, total: carried + accounts + stakes };
}

/**
 * The fork's genesis. `own`: the genesis the devnet makes from its manifest (validators,
 * accounts, params over the source's, genesis time); `chainId`: the fork's, never the source's.
 */
export function forkGenesis(source: ChainState, own: GenesisJson, chainId: string): GenesisJson {
  const h = source.height;
  const balances = new Map<string, { balance: bigint; nonce: number }>();
  for (const address of sortedKeys(source.accounts)) {
    const a = source.accounts.get(address)!;
    balances.set(address, { balance: a.balance, nonce: a.nonce });
  }
  const credit = (address: string, amount: bigint) => {
    const a = balances.get(address) ?? { balance: 0n, nonce: 0 };
    balances.set(address, { ...a, balance: a.balance + amount });
  };
  const mine = new Set(own.validators.map((v) => validatorAddressOf(v.pub_key)));
  const retired: NonNullable<GenesisJson['retired_validators']> = [];
  for (const address of sortedKeys(source.validators)) {
    const v = source.validators.get(address)!;
    if (v.stake > 0n) credit(v.operator, v.stake);
    if (mine.has(address)) continue;
    retired.push({
      pub_key: v.pubKey,
      name: v.name,
      commission_rate: ppmToRate(v.commissionPpm),
      reward_address: v.rewardAddress,
      jail_count: v.jailCount,
    });
  }
  for (const a of own.accounts ?? []) credit(a.address, BigInt(a.balance));
  const accounts: GenesisAccountJson[] = [...balances].map(([address, a]) => ({
    address,
    balance: a.balance.toString(),
    ...(a.nonce === 0 ? {} : { nonce: a.nonce }),
  }));
  const { network: _n, chain_id: _c, ...params } = paramsToJson(source.params);
  return {
    network: source.params.network,
    chain_id: chainId,
    genesis_time: own.genesis_time,
    protocol_version: source.protocolVersion,
    params: { ...params, ...own.params },
    accounts,
    validators: own.validators,
    retired_validators: retired,
    delegations: sortedKeys(source.delegations).flatMap((validator) => {
      const inner = source.delegations.get(validator)!;
      return sortedKeys(inner).map((delegator) => ({
        delegator,
        validator,
        amount: inner.get(delegator)!.amount.toString(),
        created_height: 0,
      }));
    }),
    unbonding: source.unbonding
      .filter((u) => u.completionHeight > h)
      .map((u) => ({
        delegator: u.delegator,
        validator: u.validator,
        amount: u.amount.toString(),
        creation_height: 0,
        completion_height: u.completionHeight - h,
      })),
    treasury: source.totals.treasury.toString(),
  };
}
