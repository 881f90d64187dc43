/**
 * The specification's response shapes, built from a state value. Wei are decimal strings,
 * except on the delegation and reward endpoints, which the specification gives as JSON
 * integers: those are bigint here and written as exact integer literals (util/json.ts).
 */
import {
  activeValidators,
  type ChainState,
  type Commit,
  epochAt,
  ppmToRate,
  sortedKeys,
  uptimePpm,
} from '../chain/index.js';
import type {
  BalanceAnswer,
  CommitAnswer,
  DelegationsAnswer,
  DiskAnswer,
  RewardsAnswer,
  SnapshotAnswer,
  SnapshotListItem,
  StatusAnswer,
  SupplyAnswer,
  UnbondingAnswer,
  ValidatorsAnswer,
} from './answers.js';
import type { SnapshotRecord } from './backend.js';

export function statusView(s: ChainState, mempoolSize: number, disk: DiskAnswer): StatusAnswer {
  return {
    height: s.height,
    last_hash: s.lastBlockHash,
    network: s.params.network,
    mempool_size: mempoolSize,
    epoch: epochAt(s.height, s.params.epochLength),
    // Beyond the specification's fields: the chain id a client signs for.
    chain_id: s.params.chainId,
    // Beyond them too: whether the disk takes the node's writes (docs/PROTOCOL.md, "Disk faults").
    disk,
  };
}

export function commitView(c: Commit): CommitAnswer {
  return {
    height: c.height,
    round: c.round,
    block_hash: c.blockHash,
    signatures: c.signatures.map((sig) => ({ validator: sig.validator, signature: sig.signature })),
  };
}

export function balanceView(s: ChainState, address: string): BalanceAnswer {
  const a = s.accounts.get(address);
  return { address, balance: (a?.balance ?? 0n).toString(), nonce: a?.nonce ?? 0 };
}

/** All validators in address order (the proposer order of the active ones). */
export function validatorsView(s: ChainState): ValidatorsAnswer {
  const activeIndex = new Map(activeValidators(s).map((v, i) => [v.address, i]));
  return {
    epoch: epochAt(s.height, s.params.epochLength),
    validators: sortedKeys(s.validators).map((address) => {
      const v = s.validators.get(address)!;
      return {
        address: v.address,
        pq_pub_key: v.pubKey,
        power: v.stake.toString(),
        is_active: v.status === 'ACTIVE',
        reward_address: v.rewardAddress,
        name: v.name,
        commission_rate: ppmToRate(v.commissionPpm),
        // Beyond the specification's fields: what a devnet user and the e2e suite need.
        status: v.status,
        is_jailed: v.status === 'JAILED',
        jail_count: v.jailCount,
        total_delegated: v.totalDelegated.toString(),
        uptime: ppmToRate(uptimePpm(v)),
        missed_slots: v.slotsMissed,
        produced_slots: v.slotsProduced,
        proposer_index: activeIndex.get(v.address) ?? null,
        operator_address: v.operator,
      };
    }),
  };
}

export function delegationsView(s: ChainState, delegator: string): DelegationsAnswer {
  const delegations = [];
  let total = 0n;
  for (const validator of sortedKeys(s.delegations)) {
    const d = s.delegations.get(validator)!.get(delegator);
    if (d === undefined) continue;
    const v = s.validators.get(validator);
    total += d.amount;
    delegations.push({
      validator,
      amount: d.amount,
      created_height: d.createdHeight,
      validator_name: v?.name ?? '',
      validator_commission: ppmToRate(v?.commissionPpm ?? 0),
    });
  }
  return { delegator, total_delegated: total, delegations };
}

export function rewardsView(s: ChainState, delegator: string): RewardsAnswer {
  const history = s.accounts.get(delegator)?.rewardHistory ?? new Map<number, bigint>();
  const epochs = [...history.keys()].sort((a, b) => a - b);
  let total = 0n;
  const rewards_by_epoch = epochs.map((epoch) => {
    const amount = history.get(epoch)!;
    total += amount;
    return { epoch, amount };
  });
  return {
    delegator,
    total_rewards: total,
    current_epoch: epochAt(s.height, s.params.epochLength),
    rewards_by_epoch,
  };
}

export function unbondingView(s: ChainState, delegator: string): UnbondingAnswer {
  return {
    delegator,
    unbonding_entries: s.unbonding
      .filter((u) => u.delegator === delegator)
      .map((u) => ({
        validator: u.validator,
        amount: u.amount.toString(),
        creation_height: u.creationHeight,
        completion_height: u.completionHeight,
        blocks_remaining: Math.max(0, u.completionHeight - s.height),
      })),
  };
}

/** Sums over the whole state (O(accounts + validators + delegations)): a devnet's size, not a mainnet's. */
export function supplyView(s: ChainState): SupplyAnswer {
  let balances = 0n;
  for (const a of s.accounts.values()) balances += a.balance;
  let stakes = 0n;
  for (const v of s.validators.values()) stakes += v.stake;
  let delegations = 0n;
  for (const byDelegator of s.delegations.values())
    for (const d of byDelegator.values()) delegations += d.amount;
  let unbonding = 0n;
  for (const u of s.unbonding) unbonding += u.amount;
  const t = s.totals;
  return {
    height: s.height,
    genesis_supply: t.genesisSupply.toString(),
    total_minted: t.minted.toString(),
    total_burned: t.burned.toString(),
    balances: balances.toString(),
    stakes: stakes.toString(),
    delegations: delegations.toString(),
    unbonding: unbonding.toString(),
    treasury: t.treasury.toString(),
  };
}

export function snapshotListItem(r: SnapshotRecord): SnapshotListItem {
  return {
    height: r.height,
    timestamp: r.timestamp,
    size_bytes: r.sizeBytes,
    hash: r.hash,
    compressed: true,
  };
}

export function snapshotDetail(r: SnapshotRecord): SnapshotAnswer {
  return {
    ...snapshotListItem(r),
    epoch: r.epoch,
    validator_count: r.validatorCount,
    account_count: r.accountCount,
  };
}
