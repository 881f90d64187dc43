/**
 * Builds and signs a transaction for a key, asking the node for the sender's next nonce.
 * The fee defaults to the type's minimum at the default gas price (1000 wei).
 */
import { minFee, NETWORK_PARAMS, signTx, type Tx, type TxPayload, type TxType } from '../chain/index.js';
import { accountAddressOf } from '../crypto/address.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import type { RpcClient } from './rpcClient.js';

export interface TxRequest {
  readonly type: TxType;
  readonly privateKey: Uint8Array;
  readonly to?: string | null;
  readonly amount?: bigint;
  readonly fee?: bigint;
  readonly nonce?: number;
  readonly payload?: TxPayload;
  readonly chainId: string;
  readonly timestamp: number;
}

export async function buildTx(client: RpcClient, req: TxRequest): Promise<Tx> {
  const from = accountAddressOf(publicKeyHexOf(req.privateKey));
  const nonce = req.nonce ?? (await client.balance(from)).nonce;
  return signTx(
    {
      type: req.type,
      from,
      to: req.to ?? null,
      amount: req.amount ?? 0n,
      fee: req.fee ?? minFee(req.type, NETWORK_PARAMS.devnet.minGasPrice),
      nonce,
      gasPrice: 0,
      gasLimit: 0,
      timestamp: req.timestamp,
      payload: req.payload ?? {},
    },
    req.privateKey,
    req.chainId,
  );
}
