/** DELEGATE: bonds `amount` from the sender to the validator in `to_address` (not an ejected one). */
import type { Validator } from '../state/types.js';
import { isFailure, requirePositiveAmount, targetValidator } from './common.js';
import type { TxRule } from './context.js';

export const delegateRule: TxRule = {
  check(d, tx) {
    const bad = requirePositiveAmount(tx);
    if (bad) return bad;
    const v = targetValidator(d, tx, false);
    return isFailure(v) ? v : null;
  },
  cost: (_d, tx) => tx.amount,
  apply(d, tx, ctx) {
    const v = targetValidator(d, tx, false) as Validator;
    const existing = d.delegation(v.address, tx.from);
    d.setDelegation({
      delegator: tx.from,
      validator: v.address,
      amount: (existing?.amount ?? 0n) + tx.amount,
      createdHeight: existing?.createdHeight ?? ctx.height,
    });
    d.setValidator({ ...v, totalDelegated: v.totalDelegated + tx.amount });
  },
};
