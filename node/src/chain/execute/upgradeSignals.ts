/**
 * Upgrade plans agreed by validators (extension; docs/RULES.md, "Upgrade plans"): what the two
 * transaction rules share. A plan is scheduled once the active validators whose signature of it is
 * pending are more than 2/3 of the active set, and a scheduled plan is cancelled once more than 1/3
 * signed its cancel. The measure is the consensus's: one vote per active validator (a block is
 * final with more than 2/3 of them), so exactly the validators that can commit blocks decide.
 */
import { type TxFailure, txFailure } from '../errors.js';
import { compareSemVer, parseSemVer } from '../semver.js';
import type { StateDraft } from '../state/draft.js';
import type { UpgradePlan, UpgradeSignal, Validator } from '../state/types.js';
import type { Tx } from '../tx/types.js';
import { isFailure, ownValidator, requireZeroAmount } from './common.js';

/** Blocks between the transaction that signs a plan and the plan's height, at least. */
export const MIN_UPGRADE_DELAY = 10;

export function samePlan(a: UpgradePlan, b: UpgradePlan): boolean {
  return a.targetVersion === b.targetVersion && a.upgradeHeight === b.upgradeHeight;
}

/** The sender's validator when it may sign plans and cancels (amount 0, ACTIVE), or the failure. */
export function activeSigner(d: StateDraft, tx: Tx): Validator | TxFailure {
  const bad = requireZeroAmount(tx);
  if (bad) return bad;
  const v = ownValidator(d, tx);
  if (isFailure(v) || v.status === 'ACTIVE') return v;
  return txFailure(
    'NOT_ACTIVE_VALIDATOR',
    `validator ${v.address} is ${v.status}: only active validators sign plans and their cancels`,
  );
}

/** The plan a transaction names (its payload has both fields: tx/wire.ts requires them). */
export function planOf(payload: { targetVersion?: string; upgradeHeight?: number }): UpgradePlan {
  return { targetVersion: payload.targetVersion ?? '', upgradeHeight: payload.upgradeHeight ?? 0 };
}

/** The scheduled plan not yet applied at `height` (the block executing), if any. */
export function scheduledPlan(upgrades: readonly UpgradePlan[], height: number): UpgradePlan | undefined {
  return upgrades.find((u) => u.upgradeHeight > height);
}

/** Whether `target` is above `current` (both MAJOR.MINOR.PATCH; a malformed one is not above). */
export function isAbove(target: string, current: string): boolean {
  const t = parseSemVer(target);
  const c = parseSemVer(current);
  return t !== null && c !== null && compareSemVer(t, c) > 0;
}

/** The active validators that signed `kind` of `plan`, and how many are active. */
export function tally(
  d: StateDraft,
  kind: UpgradeSignal['kind'],
  plan: UpgradePlan,
): { signed: number; active: number } {
  const active = d.allValidators().filter((v) => v.status === 'ACTIVE');
  const signed = active.filter((v) => {
    const s = d.upgradeSignal(v.address);
    return s !== undefined && s.kind === kind && samePlan(s.plan, plan);
  }).length;
  return { signed, active: active.length };
}

/** More than 2/3: what schedules a plan. */
export const moreThanTwoThirds = (t: { signed: number; active: number }) => 3 * t.signed > 2 * t.active;
/** More than 1/3: what cancels a scheduled one (the share that could keep it from being applied). */
export const moreThanOneThird = (t: { signed: number; active: number }) => 3 * t.signed > t.active;

/** Drops every pending signature: a plan was scheduled or cancelled, and the ones left are void. */
export function dropSignals(d: StateDraft): void {
  for (const [validator] of d.upgradeSignals()) d.setUpgradeSignal(validator, null);
}
