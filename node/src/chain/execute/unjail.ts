/**
 * UNJAIL: a jailed validator pays the unjail fee (burned) and is ACTIVE again from the next
 * block, or INACTIVE if the active set is full. Its stake must still meet the minimum
 * (STAKE more first if slashing took it below).
 */
import { txFailure } from '../errors.js';
import type { Validator } from '../state/types.js';
import { isFailure, ownValidator, requireZeroAmount } from './common.js';
import type { TxRule } from './context.js';

export const unjailRule: TxRule = {
  check(d, tx) {
    const bad = requireZeroAmount(tx);
    if (bad) return bad;
    const v = ownValidator(d, tx);
    if (isFailure(v)) return v;
    if (v.status !== 'JAILED')
      return txFailure('NOT_JAILED', `validator ${v.address} is not jailed (status ${v.status})`);
    if (v.stake < d.params.minStake)
      return txFailure(
        'BELOW_MIN_STAKE',
        `stake ${v.stake} wei is below the minimum stake ${d.params.minStake} wei: STAKE more before UNJAIL`,
      );
    return null;
  },
  cost: (d) => d.params.unjailFee,
  apply(d, tx) {
    const v = ownValidator(d, tx) as Validator;
    d.burn(d.params.unjailFee);
    const active = d.allValidators().filter((x) => x.status === 'ACTIVE').length;
    d.setValidator({
      ...v,
      status: active < d.params.maxValidators ? 'ACTIVE' : 'INACTIVE',
      slotsProduced: 0,
      slotsMissed: 0,
    });
  },
};
