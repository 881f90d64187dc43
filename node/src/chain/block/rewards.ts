/**
 * Block reward and its distribution (specification, chain rules 7 and 8).
 *   reward(h) = initial_reward >> floor(h / halving_interval)
 *   total     = reward(h) + fees of the block's successful transactions, all to the proposer:
 *   - no delegations: the validator's reward_address gets all of it;
 *   - with delegations: commission = floor(total * commission_ppm / 10^6);
 *     each delegator gets floor((total - commission) * amount / total_delegated);
 *     the wei left by the floors (fewer than the number of delegators) go to the validator.
 * So the parts always add up to `total`: nothing created, nothing lost.
 */
import { mulPpm } from '../amounts.js';
import type { ChainParams } from '../params.js';
import type { StateDraft } from '../state/draft.js';
import type { Validator } from '../state/types.js';

export function blockReward(height: number, params: ChainParams): bigint {
  const halvings = Math.floor(height / params.halvingInterval);
  return halvings >= 256 ? 0n : params.initialBlockReward >> BigInt(halvings);
}

export interface RewardShare {
  readonly address: string;
  readonly amount: bigint;
}

/** The split of `total` earned by `v`, given its delegations (pure arithmetic, no state). */
export function splitReward(
  v: Pick<Validator, 'rewardAddress' | 'commissionPpm' | 'totalDelegated'>,
  delegations: readonly { delegator: string; amount: bigint }[],
  total: bigint,
): RewardShare[] {
  if (v.totalDelegated === 0n || delegations.length === 0)
    return [{ address: v.rewardAddress, amount: total }];
  const commission = mulPpm(total, v.commissionPpm);
  const pool = total - commission;
  const shares: RewardShare[] = [];
  let given = 0n;
  for (const d of delegations) {
    const amount = (pool * d.amount) / v.totalDelegated;
    given += amount;
    shares.push({ address: d.delegator, amount });
  }
  return [{ address: v.rewardAddress, amount: commission + (pool - given) }, ...shares];
}

/** Credits the proposer's reward split and records it in each account's reward_history. */
export function distributeReward(d: StateDraft, proposer: Validator, total: bigint, epoch: number): void {
  for (const share of splitReward(proposer, d.delegationsTo(proposer.address), total)) {
    d.addReward(share.address, epoch, share.amount);
  }
}
