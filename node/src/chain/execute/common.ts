/** Checks shared by several rules, each returning the failure or null. */

import { validatorAddressOf } from '../../crypto/address.js';
import { ppmToRate } from '../amounts.js';
import { type TxFailure, txFailure } from '../errors.js';
import { isReservedAddress } from '../reserved.js';
import type { StateDraft } from '../state/draft.js';
import type { Validator } from '../state/types.js';
import type { Tx } from '../tx/types.js';

export function requirePositiveAmount(tx: Tx): TxFailure | null {
  return tx.amount > 0n
    ? null
    : txFailure('INVALID_AMOUNT', `amount must be a positive integer for ${tx.type}, got ${tx.amount}`);
}

export function requireZeroAmount(tx: Tx): TxFailure | null {
  return tx.amount === 0n
    ? null
    : txFailure('INVALID_AMOUNT', `amount must be 0 for ${tx.type}, got ${tx.amount}`);
}

/** A reward address may not be a reserved one (reserved.ts): no balance may ever sit there. */
export function checkRewardAddress(address: string | undefined): TxFailure | null {
  if (address === undefined || !isReservedAddress(address)) return null;
  return txFailure('INVALID_PAYLOAD', `reward_address ${address} is a reserved address (burn or treasury)`);
}

export function checkCommission(ppm: number | undefined): TxFailure | null {
  if (ppm === undefined || ppm <= 1_000_000) return null;
  return txFailure('INVALID_COMMISSION', `commission_rate must be between 0 and 1, got ${ppmToRate(ppm)}`);
}

/** The validator operated by the sender's key, or the failure saying why there is none usable. */
export function ownValidator(d: StateDraft, tx: Tx, allowEjected = false): Validator | TxFailure {
  const address = validatorAddressOf(tx.pubKey);
  const v = d.validator(address);
  if (v === undefined)
    return txFailure('UNKNOWN_VALIDATOR', `unknown validator ${address}: this key has not sent STAKE`);
  if (v.status === 'EJECTED' && !allowEjected)
    return txFailure(
      'VALIDATOR_EJECTED',
      `validator ${address} was ejected after its third jailing and cannot act again`,
    );
  return v;
}

export function targetValidator(d: StateDraft, tx: Tx, allowEjected: boolean): Validator | TxFailure {
  const address = tx.to!;
  const v = d.validator(address);
  if (v === undefined) return txFailure('UNKNOWN_VALIDATOR', `unknown validator ${address}`);
  if (v.status === 'EJECTED' && !allowEjected)
    return txFailure('VALIDATOR_EJECTED', `validator ${address} was ejected and takes no delegations`);
  return v;
}

export function isFailure(x: object): x is TxFailure {
  return 'code' in x && 'message' in x;
}

/** Puts an amount leaving a stake or delegation into the unbonding queue. */
export function startUnbonding(
  d: StateDraft,
  delegator: string,
  validator: string,
  amount: bigint,
  height: number,
): void {
  d.addUnbonding({
    delegator,
    validator,
    amount,
    creationHeight: height,
    completionHeight: height + d.params.unbondingBlocks,
  });
}
