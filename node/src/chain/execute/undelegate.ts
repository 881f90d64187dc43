/** UNDELEGATE: moves `amount` of the sender's delegation to `to_address` into the unbonding queue. */
import { txFailure } from '../errors.js';
import type { Delegation, Validator } from '../state/types.js';
import { isFailure, requirePositiveAmount, startUnbonding, targetValidator } from './common.js';
import type { TxRule } from './context.js';

export const undelegateRule: TxRule = {
  check(d, tx) {
    const bad = requirePositiveAmount(tx);
    if (bad) return bad;
    const v = targetValidator(d, tx, true);
    if (isFailure(v)) return v;
    const del = d.delegation(v.address, tx.from);
    if (del === undefined) return txFailure('NO_DELEGATION', `${tx.from} has no delegation to ${v.address}`);
    if (tx.amount > del.amount)
      return txFailure(
        'INSUFFICIENT_DELEGATION',
        `undelegate ${tx.amount} wei exceeds delegation ${del.amount} wei`,
      );
    return null;
  },
  cost: () => 0n,
  apply(d, tx, ctx) {
    const v = targetValidator(d, tx, true) as Validator;
    const del = d.delegation(v.address, tx.from) as Delegation;
    d.setDelegation({ ...del, amount: del.amount - tx.amount });
    d.setValidator({ ...v, totalDelegated: v.totalDelegated - tx.amount });
    startUnbonding(d, tx.from, v.address, tx.amount, ctx.height);
  },
};
