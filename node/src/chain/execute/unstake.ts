/**
 * UNSTAKE: takes `amount` out of the sender's validator stake into the unbonding queue.
 * While the validator is jailed it costs 10% more (jailedUnstakePenaltyPpm): the stake
 * falls by amount + penalty, the penalty is burned, `amount` unbonds.
 */
import { mulPpm } from '../amounts.js';
import { txFailure } from '../errors.js';
import type { StateDraft } from '../state/draft.js';
import type { Validator } from '../state/types.js';
import type { Tx } from '../tx/types.js';
import { isFailure, ownValidator, requirePositiveAmount, startUnbonding } from './common.js';
import type { TxRule } from './context.js';

function penaltyFor(d: StateDraft, v: Validator, tx: Tx): bigint {
  return v.status === 'JAILED' ? mulPpm(tx.amount, d.params.jailedUnstakePenaltyPpm) : 0n;
}

export const unstakeRule: TxRule = {
  check(d, tx) {
    const bad = requirePositiveAmount(tx);
    if (bad) return bad;
    const v = ownValidator(d, tx);
    if (isFailure(v)) return v;
    const penalty = penaltyFor(d, v, tx);
    if (tx.amount + penalty > v.stake) {
      const extra = penalty > 0n ? ` plus the jailed penalty ${penalty} wei` : '';
      return txFailure('INSUFFICIENT_STAKE', `unstake ${tx.amount} wei${extra} exceeds stake ${v.stake} wei`);
    }
    return null;
  },
  cost: () => 0n,
  apply(d, tx, ctx) {
    const v = ownValidator(d, tx) as Validator;
    const penalty = penaltyFor(d, v, tx);
    d.setValidator({ ...v, stake: v.stake - tx.amount - penalty });
    if (penalty > 0n) d.burn(penalty);
    startUnbonding(d, tx.from, v.address, tx.amount, ctx.height);
  },
};
