/**
 * A settlement's transfers, signed by the escrow key with consecutive nonces: each share of a
 * split (or the refund) one TRANSFER whose memo names the task and the share. Zero-wei shares
 * are left out (a TRANSFER moves a positive amount). The transaction's timestamp is the market's
 * chain time: signed, never compared with a clock. Pure.
 */
import { signTx, txHash, txToJson } from '../chain/index.js';
import type { SharePart } from './split.js';
import type { PayoutRecord } from './types.js';

export interface EscrowSigner {
  readonly address: string;
  readonly privateKey: Uint8Array;
  readonly chainId: string;
  /** Fee of each payout (the chain's minimum for a TRANSFER unless configured). */
  readonly fee: bigint;
}

export const payoutMemo = (taskId: string, share: string) => `market-payout:${taskId}:${share}`;

export function signPayout(
  escrow: EscrowSigner,
  taskId: string,
  part: SharePart,
  nonce: number,
  timestamp: number,
): { tx_hash: string; tx: PayoutRecord['tx'] } {
  const tx = signTx(
    {
      type: 'TRANSFER',
      from: escrow.address,
      to: part.to,
      amount: part.amount,
      fee: escrow.fee,
      nonce,
      gasPrice: 0,
      gasLimit: 0,
      timestamp,
      payload: { memo: payoutMemo(taskId, part.share) },
    },
    escrow.privateKey,
    escrow.chainId,
  );
  return { tx_hash: txHash(tx, escrow.chainId), tx: txToJson(tx) };
}

/** The plan: one signed payout per part with a positive amount, nonces from `firstNonce` on. */
export function planPayouts(
  escrow: EscrowSigner,
  taskId: string,
  parts: readonly SharePart[],
  firstNonce: number,
  timestamp: number,
): PayoutRecord[] {
  return parts
    .filter((p) => p.amount > 0n)
    .map((p, i) => ({
      share: p.share,
      to_address: p.to,
      amount: p.amount.toString(),
      nonce: firstNonce + i,
      ...signPayout(escrow, taskId, p, firstNonce + i, timestamp),
      status: 'planned' as const,
      height: null,
      replaced: [],
    }));
}

/**
 * The same payment signed again (another hash), the old hash kept in `replaced`: with the same
 * nonce and a later timestamp for one that failed in a block, or with a fresh nonce for one
 * whose nonce another transaction from the escrow took. Either way the old signature can never
 * execute, so the payment stays one.
 */
export function resign(escrow: EscrowSigner, taskId: string, p: PayoutRecord, nonce = p.nonce): PayoutRecord {
  const timestamp = p.tx.timestamp + 1;
  const part = { share: p.share, to: p.to_address, amount: BigInt(p.amount) };
  return {
    ...p,
    nonce,
    ...signPayout(escrow, taskId, part, nonce, timestamp),
    replaced: [...p.replaced, p.tx_hash],
  };
}
