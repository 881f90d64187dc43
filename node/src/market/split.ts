/**
 * The split of a completed task's reward R (the specification's planned split; docs/MARKET.md,
 * "The split"), exact to the wei:
 *
 *   burn       = ⌊60·R / 100⌋      to the burn address (total_burned)
 *   worker     = ⌊25·R / 100⌋      to the worker
 *   validators = ⌊10·R / 100⌋      equally among the k signers of the commit of the block that
 *                                  holds the SUBMIT_RESULT: ⌊validators / k⌋ each, to each one's
 *                                  reward address, in the order given (the commit's)
 *   treasury   = R − burn − worker − k·⌊validators / k⌋   (every wei the floors leave)
 *
 * The parts always sum to R. Pure.
 */
import { BURN_ADDRESS, TREASURY_ADDRESS } from '../chain/index.js';

export type Share = 'burn' | 'worker' | 'validator' | 'treasury' | 'refund';

export interface SharePart {
  readonly share: Share;
  readonly to: string;
  readonly amount: bigint;
}

export function splitReward(
  reward: bigint,
  worker: string,
  validatorRewardAddresses: readonly string[],
): SharePart[] {
  if (reward <= 0n) throw new RangeError(`a reward is positive, got ${reward}`);
  const burn = (reward * 60n) / 100n;
  const toWorker = (reward * 25n) / 100n;
  const pool = (reward * 10n) / 100n;
  const k = BigInt(validatorRewardAddresses.length);
  const each = k === 0n ? 0n : pool / k;
  const treasury = reward - burn - toWorker - each * k;
  return [
    { share: 'burn', to: BURN_ADDRESS, amount: burn },
    { share: 'worker', to: worker, amount: toWorker },
    ...validatorRewardAddresses.map((to) => ({ share: 'validator' as const, to, amount: each })),
    { share: 'treasury', to: TREASURY_ADDRESS, amount: treasury },
  ];
}

/**
 * The parts with no payout to the escrow itself: a share whose recipient is the escrow (a
 * validator whose reward_address is the escrow, which the chain allows) goes to the treasury
 * instead. A transfer from the escrow to itself would move nothing and cost a fee, and paying
 * one's own account is no payment of a share (docs/MARKET.md, "The split"). The sum is unchanged.
 */
export function withoutSelfPayment(parts: readonly SharePart[], escrow: string): SharePart[] {
  if (parts.every((p) => p.to !== escrow)) return [...parts];
  const diverted = parts.reduce((sum, p) => (p.to === escrow ? sum + p.amount : sum), 0n);
  const kept = parts.filter((p) => p.to !== escrow);
  const treasury = kept.findIndex((p) => p.share === 'treasury');
  if (treasury >= 0) {
    const t = kept[treasury]!;
    kept[treasury] = { ...t, amount: t.amount + diverted };
  } else kept.push({ share: 'treasury', to: TREASURY_ADDRESS, amount: diverted });
  return kept;
}
