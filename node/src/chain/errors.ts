/**
 * Every way a transaction or a block can be invalid, as a code plus a precise message.
 * Codes are stable (clients and metrics key on them); messages are for people.
 * Translated once at each edge: RPC `error` strings, gossip verdicts, metric labels.
 */

export const TX_ERROR_CODES = [
  'INVALID_FORMAT',
  'INVALID_SIGNATURE',
  'PUBKEY_MISMATCH',
  'WRONG_CHAIN',
  'BAD_NONCE',
  'INSUFFICIENT_BALANCE',
  'FEE_TOO_LOW',
  'INVALID_AMOUNT',
  'INVALID_PAYLOAD',
  'BELOW_MIN_STAKE',
  'UNKNOWN_VALIDATOR',
  'NOT_JAILED',
  'VALIDATOR_EJECTED',
  'INVALID_COMMISSION',
  'INSUFFICIENT_STAKE',
  'NO_DELEGATION',
  'INSUFFICIENT_DELEGATION',
  /** Extension (upgrade plans): the sender's validator is not in the active set. */
  'NOT_ACTIVE_VALIDATOR',
  /** Extension: a plan whose version or height the rules refuse. */
  'INVALID_UPGRADE',
  /** Extension: a plan is already scheduled and not yet applied. */
  'UPGRADE_PENDING',
  /** Extension: UPGRADE_CANCEL of a plan that is neither scheduled nor signed by the sender. */
  'NO_UPGRADE',
] as const;

export type TxErrorCode = (typeof TX_ERROR_CODES)[number];

export interface TxFailure {
  readonly code: TxErrorCode;
  readonly message: string;
}

export function txFailure(code: TxErrorCode, message: string): TxFailure {
  return { code, message };
}

export const BLOCK_ERROR_CODES = [
  'WRONG_HEIGHT',
  'WRONG_PREV_HASH',
  'WRONG_CHAIN',
  'TIMESTAMP_BEFORE_PARENT',
  'WRONG_PROPOSER',
  'BAD_PROPOSER_SIGNATURE',
  'BAD_TX_SIGNATURE',
  'BAD_TX_ROOT',
  'BAD_COMPUTE_ROOT',
  'BAD_STATE_ROOT',
  'BAD_GAS',
  'NO_ACTIVE_VALIDATORS',
  'UPGRADE_UNSUPPORTED',
  /** A block's commit that does not prove it final: see commitProblem. */
  'BAD_COMMIT',
  'MALFORMED',
] as const;

export type BlockErrorCode = (typeof BLOCK_ERROR_CODES)[number];

/** A block that no honest node may accept. Thrown by the rules; the edges decide what it costs the sender. */
export class BlockError extends Error {
  override readonly name = 'BlockError';
  constructor(
    readonly code: BlockErrorCode,
    message: string,
  ) {
    super(message);
  }
}
