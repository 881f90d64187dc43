/**
 * UPGRADE_PLAN (extension): an active validator's operator signs {target_version,
 * upgrade_height}; the plan is scheduled once more than 2/3 of the active validators signed it
 * (docs/RULES.md, "Upgrade plans"). Signing another plan replaces the sender's earlier signature.
 */
import { txFailure } from '../errors.js';
import type { Validator } from '../state/types.js';
import { isFailure, ownValidator } from './common.js';
import type { TxRule } from './context.js';
import {
  activeSigner,
  dropSignals,
  isAbove,
  MIN_UPGRADE_DELAY,
  moreThanTwoThirds,
  planOf,
  scheduledPlan,
  tally,
} from './upgradeSignals.js';

export const upgradePlanRule: TxRule = {
  check(d, tx, ctx) {
    const v = activeSigner(d, tx);
    if (isFailure(v)) return v;
    const plan = planOf(tx.payload);
    if (!isAbove(plan.targetVersion, d.protocolVersion))
      return txFailure(
        'INVALID_UPGRADE',
        `target_version ${plan.targetVersion} must be above the protocol version ${d.protocolVersion}`,
      );
    const earliest = ctx.height + MIN_UPGRADE_DELAY;
    if (plan.upgradeHeight < earliest)
      return txFailure(
        'INVALID_UPGRADE',
        `upgrade_height ${plan.upgradeHeight} must be at least ${earliest} (this block's height + ${MIN_UPGRADE_DELAY})`,
      );
    const scheduled = scheduledPlan(d.upgrades, ctx.height);
    if (scheduled !== undefined)
      return txFailure(
        'UPGRADE_PENDING',
        `the plan ${scheduled.targetVersion} at height ${scheduled.upgradeHeight} is scheduled: cancel it first`,
      );
    return null;
  },
  cost: () => 0n,
  apply(d, tx, ctx) {
    const v = ownValidator(d, tx) as Validator;
    const plan = planOf(tx.payload);
    d.setUpgradeSignal(v.address, { kind: 'plan', plan, signedHeight: ctx.height });
    if (!moreThanTwoThirds(tally(d, 'plan', plan))) return;
    d.upgrades = [...d.upgrades, plan];
    dropSignals(d);
  },
};
