/**
 * STAKE: the first one registers the sender's key as an INACTIVE validator with at least the
 * minimum stake; later ones add to its stake (any positive amount, also while jailed). The
 * payload may set name, commission_rate and reward_address. Activation happens at an epoch
 * boundary (epoch.ts).
 */
import { accountAddressOf, validatorAddressOf } from '../../crypto/address.js';
import { txFailure } from '../errors.js';
import { checkCommission, checkRewardAddress, requirePositiveAmount } from './common.js';
import type { TxRule } from './context.js';

export const stakeRule: TxRule = {
  check(d, tx) {
    const bad =
      requirePositiveAmount(tx) ??
      checkCommission(tx.payload.commissionPpm) ??
      checkRewardAddress(tx.payload.rewardAddress);
    if (bad) return bad;
    const existing = d.validator(validatorAddressOf(tx.pubKey));
    if (existing?.status === 'EJECTED')
      return txFailure(
        'VALIDATOR_EJECTED',
        `validator ${existing.address} was ejected and cannot stake again`,
      );
    if (existing === undefined && tx.amount < d.params.minStake)
      return txFailure(
        'BELOW_MIN_STAKE',
        `stake ${tx.amount} wei is below the minimum stake ${d.params.minStake} wei`,
      );
    return null;
  },
  cost: (_d, tx) => tx.amount,
  apply(d, tx, ctx) {
    const address = validatorAddressOf(tx.pubKey);
    const existing = d.validator(address);
    const p = tx.payload;
    if (existing === undefined) {
      const operator = accountAddressOf(tx.pubKey);
      d.setValidator({
        address,
        pubKey: tx.pubKey,
        operator,
        rewardAddress: p.rewardAddress ?? operator,
        name: p.name ?? '',
        commissionPpm: p.commissionPpm ?? d.params.defaultCommissionPpm,
        stake: tx.amount,
        totalDelegated: 0n,
        status: 'INACTIVE',
        jailCount: 0,
        registeredHeight: ctx.height,
        slotsProduced: 0,
        slotsMissed: 0,
      });
      return;
    }
    d.setValidator({
      ...existing,
      stake: existing.stake + tx.amount,
      name: p.name ?? existing.name,
      commissionPpm: p.commissionPpm ?? existing.commissionPpm,
      rewardAddress: p.rewardAddress ?? existing.rewardAddress,
    });
  },
};
