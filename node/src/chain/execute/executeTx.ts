/**
 * Executes one transaction against a draft. Order of checks, the same for every type:
 * fee >= base_gas * min_gas_price, nonce == account nonce, the type's own rule, then the
 * balance covers fee + the type's cost. A failing transaction changes nothing at all:
 * no fee, no nonce. Signatures are checked before this (checkTxSignature), once per tx.
 */
import { type TxFailure, txFailure } from '../errors.js';
import type { StateDraft } from '../state/draft.js';
import { BASE_GAS, type Tx, type TxType } from '../tx/types.js';
import type { BlockContext, TxRule } from './context.js';
import { delegateRule } from './delegate.js';
import { stakeRule } from './stake.js';
import { submitResultRule } from './submitResult.js';
import { transferRule } from './transfer.js';
import { undelegateRule } from './undelegate.js';
import { unjailRule } from './unjail.js';
import { unstakeRule } from './unstake.js';
import { updateValidatorRule } from './updateValidator.js';
import { upgradeCancelRule } from './upgradeCancel.js';
import { upgradePlanRule } from './upgradePlan.js';

const RULES: Readonly<Record<TxType, TxRule>> = {
  TRANSFER: transferRule,
  STAKE: stakeRule,
  UNSTAKE: unstakeRule,
  DELEGATE: delegateRule,
  UNDELEGATE: undelegateRule,
  UNJAIL: unjailRule,
  UPDATE_VALIDATOR: updateValidatorRule,
  SUBMIT_RESULT: submitResultRule,
  UPGRADE_PLAN: upgradePlanRule,
  UPGRADE_CANCEL: upgradeCancelRule,
};

export function minFee(type: TxType, minGasPrice: bigint): bigint {
  return BigInt(BASE_GAS[type]) * minGasPrice;
}

/** Every check without writing: what the mempool asks before admitting a transaction. */
export function checkTx(d: StateDraft, tx: Tx, ctx: BlockContext): TxFailure | null {
  const min = minFee(tx.type, d.params.minGasPrice);
  if (tx.fee < min)
    return txFailure('FEE_TOO_LOW', `fee ${tx.fee} wei is below the minimum ${min} wei for ${tx.type}`);
  const account = d.account(tx.from);
  if (tx.nonce !== account.nonce)
    return txFailure('BAD_NONCE', `bad nonce: expected ${account.nonce}, got ${tx.nonce}`);
  const rule = RULES[tx.type];
  const bad = rule.check(d, tx, ctx);
  if (bad) return bad;
  const need = tx.fee + rule.cost(d, tx);
  if (account.balance < need)
    return txFailure(
      'INSUFFICIENT_BALANCE',
      `insufficient balance: have ${account.balance} wei, need ${need} wei`,
    );
  return null;
}

/** Checks, then applies. Returns the failure (state untouched) or null with the fee collected. */
export function executeTx(
  d: StateDraft,
  tx: Tx,
  ctx: BlockContext,
): { failure: TxFailure | null; fee: bigint } {
  const failure = checkTx(d, tx, ctx);
  if (failure) return { failure, fee: 0n };
  const rule = RULES[tx.type];
  const account = d.account(tx.from);
  d.setAccount(tx.from, {
    ...account,
    balance: account.balance - tx.fee - rule.cost(d, tx),
    nonce: account.nonce + 1,
  });
  rule.apply(d, tx, ctx);
  return { failure: null, fee: tx.fee };
}
