/**
 * The transaction types, their wire codes and base gas: the specification's eight ("Transaction"),
 * then the extension's two (docs/PROTOCOL.md, "Upgrade plans"): a validator's signature of an
 * upgrade plan and of its cancel. The extension's codes come after the eight, which keep theirs.
 */

export const TX_TYPES = [
  'TRANSFER',
  'STAKE',
  'UNSTAKE',
  'DELEGATE',
  'UNDELEGATE',
  'UNJAIL',
  'UPDATE_VALIDATOR',
  'SUBMIT_RESULT',
  'UPGRADE_PLAN',
  'UPGRADE_CANCEL',
] as const;

/** The extension's types: their signing bytes carry the plan after the payload (tx/signing.ts). */
export const UPGRADE_TX_TYPES = ['UPGRADE_PLAN', 'UPGRADE_CANCEL'] as const;

export type TxType = (typeof TX_TYPES)[number];

/** Byte used for the type in signing bytes: 1-based index in TX_TYPES. */
export function txTypeCode(type: TxType): number {
  return TX_TYPES.indexOf(type) + 1;
}

export function txTypeFromCode(code: number): TxType | undefined {
  return TX_TYPES[code - 1];
}

export const BASE_GAS: Readonly<Record<TxType, number>> = {
  TRANSFER: 21_000,
  STAKE: 40_000,
  UNSTAKE: 40_000,
  DELEGATE: 35_000,
  UNDELEGATE: 35_000,
  UNJAIL: 50_000,
  UPDATE_VALIDATOR: 30_000,
  SUBMIT_RESULT: 80_000,
  UPGRADE_PLAN: 30_000,
  UPGRADE_CANCEL: 30_000,
};

/**
 * Payload fields, all optional at the type level; which ones a type allows or requires is
 * in PAYLOAD_FIELDS. `commissionPpm` is commission_rate in parts per million.
 */
export interface TxPayload {
  readonly memo?: string;
  readonly name?: string;
  readonly commissionPpm?: number;
  readonly rewardAddress?: string;
  readonly taskId?: string;
  readonly resultHash?: string;
  /** UPGRADE_PLAN, UPGRADE_CANCEL: the plan signed, MAJOR.MINOR.PATCH and a height. */
  readonly targetVersion?: string;
  readonly upgradeHeight?: number;
}

export type PayloadField = keyof TxPayload;

export const PAYLOAD_FIELDS: Readonly<
  Record<TxType, { allowed: readonly PayloadField[]; required: readonly PayloadField[] }>
> = {
  TRANSFER: { allowed: ['memo'], required: [] },
  STAKE: { allowed: ['name', 'commissionPpm', 'rewardAddress'], required: [] },
  UNSTAKE: { allowed: [], required: [] },
  DELEGATE: { allowed: [], required: [] },
  UNDELEGATE: { allowed: [], required: [] },
  UNJAIL: { allowed: [], required: [] },
  UPDATE_VALIDATOR: { allowed: ['name', 'commissionPpm', 'rewardAddress'], required: [] },
  SUBMIT_RESULT: { allowed: ['taskId', 'resultHash'], required: ['taskId', 'resultHash'] },
  UPGRADE_PLAN: { allowed: ['targetVersion', 'upgradeHeight'], required: ['targetVersion', 'upgradeHeight'] },
  UPGRADE_CANCEL: {
    allowed: ['targetVersion', 'upgradeHeight'],
    required: ['targetVersion', 'upgradeHeight'],
  },
};

/** Which kind of `to_address` a type takes. */
export const RECIPIENT_KIND: Readonly<Record<TxType, 'account' | 'validator' | 'none'>> = {
  TRANSFER: 'account',
  STAKE: 'none',
  UNSTAKE: 'none',
  DELEGATE: 'validator',
  UNDELEGATE: 'validator',
  UNJAIL: 'none',
  UPDATE_VALIDATOR: 'none',
  SUBMIT_RESULT: 'none',
  UPGRADE_PLAN: 'none',
  UPGRADE_CANCEL: 'none',
};

export const MAX_MEMO_BYTES = 256;
export const MAX_NAME_BYTES = 64;

/** A transaction after format checks: every field of the right type and range. */
export interface Tx {
  readonly type: TxType;
  readonly from: string;
  readonly to: string | null;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly nonce: number;
  readonly gasPrice: number;
  readonly gasLimit: number;
  readonly timestamp: number;
  /** Compressed secp256k1 public key, 66 lowercase hex characters. */
  readonly pubKey: string;
  /** r || s || v, 130 lowercase hex characters. */
  readonly signature: string;
  readonly payload: TxPayload;
}

export type UnsignedTx = Omit<Tx, 'signature'>;
