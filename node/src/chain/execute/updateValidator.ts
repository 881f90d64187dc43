/** UPDATE_VALIDATOR: changes name, commission_rate and/or reward_address of the sender's validator. */
import { txFailure } from '../errors.js';
import type { Validator } from '../state/types.js';
import { checkCommission, checkRewardAddress, isFailure, ownValidator, requireZeroAmount } from './common.js';
import type { TxRule } from './context.js';

export const updateValidatorRule: TxRule = {
  check(d, tx) {
    const p = tx.payload;
    const bad =
      requireZeroAmount(tx) ?? checkCommission(p.commissionPpm) ?? checkRewardAddress(p.rewardAddress);
    if (bad) return bad;
    if (p.name === undefined && p.commissionPpm === undefined && p.rewardAddress === undefined)
      return txFailure(
        'INVALID_PAYLOAD',
        'UPDATE_VALIDATOR needs at least one of name, commission_rate, reward_address',
      );
    const v = ownValidator(d, tx);
    return isFailure(v) ? v : null;
  },
  cost: () => 0n,
  apply(d, tx) {
    const v = ownValidator(d, tx) as Validator;
    const p = tx.payload;
    d.setValidator({
      ...v,
      name: p.name ?? v.name,
      commissionPpm: p.commissionPpm ?? v.commissionPpm,
      rewardAddress: p.rewardAddress ?? v.rewardAddress,
    });
  },
};
