/**
 * The market's rules a deployment may set (chain-market start's flags): deadlines, claims, the
 * fee of each payout. docs/MARKET.md gives each its reason.
 */
import { minFee, NETWORK_PARAMS } from '../chain/index.js';
import { type ClaimRules, DEFAULT_CLAIM_RULES } from './squatting.js';

export const DEFAULT_TRANSFER_FEE = minFee('TRANSFER', NETWORK_PARAMS.devnet.minGasPrice);

export interface MarketRules extends ClaimRules {
  /** A task without a deadline gets created_at + this. */
  readonly defaultDeadlineSeconds: number;
  /** A deadline may be at most this far past the chain time when the task is posted. */
  readonly maxDeadlineSeconds: number;
}

export const DEFAULT_RULES: MarketRules = {
  defaultDeadlineSeconds: 86_400,
  maxDeadlineSeconds: 30 * 86_400,
  ...DEFAULT_CLAIM_RULES,
};
