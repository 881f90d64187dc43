/**
 * UPGRADE_CANCEL (extension) of the plan it names: withdraws the sender's own signature of a plan
 * not yet scheduled, or signs the cancel of the scheduled one, which is cancelled once more than
 * 1/3 of the active validators signed its cancel (docs/RULES.md, "Upgrade plans").
 */
import { txFailure } from '../errors.js';
import type { Validator } from '../state/types.js';
import { isFailure, ownValidator } from './common.js';
import type { TxRule } from './context.js';
import {
  activeSigner,
  dropSignals,
  moreThanOneThird,
  planOf,
  samePlan,
  scheduledPlan,
  tally,
} from './upgradeSignals.js';

export const upgradeCancelRule: TxRule = {
  check(d, tx, ctx) {
    const v = activeSigner(d, tx);
    if (isFailure(v)) return v;
    const plan = planOf(tx.payload);
    const own = d.upgradeSignal(v.address);
    const scheduled = scheduledPlan(d.upgrades, ctx.height);
    if (own?.kind === 'plan' && samePlan(own.plan, plan)) return null;
    if (scheduled !== undefined && samePlan(scheduled, plan)) return null;
    return txFailure(
      'NO_UPGRADE',
      `no plan ${plan.targetVersion} at height ${plan.upgradeHeight} is scheduled or signed by ${v.address}`,
    );
  },
  cost: () => 0n,
  apply(d, tx, ctx) {
    const v = ownValidator(d, tx) as Validator;
    const plan = planOf(tx.payload);
    const own = d.upgradeSignal(v.address);
    if (own?.kind === 'plan' && samePlan(own.plan, plan)) {
      d.setUpgradeSignal(v.address, null);
      return;
    }
    d.setUpgradeSignal(v.address, { kind: 'cancel', plan, signedHeight: ctx.height });
    if (!moreThanOneThird(tally(d, 'cancel', plan))) return;
    d.upgrades = d.upgrades.filter((u) => !samePlan(u, plan));
    dropSignals(d);
  },
};
