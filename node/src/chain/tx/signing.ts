/**
 * Signing bytes, transaction hash and signature checks (docs/PROTOCOL.md, "Transactions").
 *   signing_bytes = str("chain-tx/v1") str(chain_id) u8(type) str(from) opt(str(to))
 *                   u256(amount) u256(fee) u64(nonce) u64(gas_price) u64(gas_limit) u64(timestamp)
 *                   raw33(pub_key) payload
 *   payload       = opt(str memo) opt(str name) opt(u32 commission_ppm) opt(str reward_address)
 *                   opt(str task_id) opt(raw32 result_hash)
 *   tx_hash       = SHA-256(signing_bytes); signature = ECDSA(tx_hash), r || s || v.
 * The chain id is inside the signed bytes, so a transaction signed for one network fails on another.
 */
import { accountAddressOf } from '../../crypto/address.js';
import { sha256 } from '../../crypto/hash.js';
import { bytesToHex } from '../../crypto/hex.js';
import { publicKeyHexOf } from '../../crypto/keys.js';
import { signDigestHex, verifyDigest } from '../../crypto/signature.js';
import { Writer } from '../encoding.js';
import { type TxFailure, txFailure } from '../errors.js';
import { type Tx, type TxPayload, txTypeCode, type UnsignedTx } from './types.js';

export const TX_DOMAIN = 'chain-tx/v1';

function writePayload(w: Writer, p: TxPayload): void {
  w.opt(p.memo, (w, v) => w.str(v));
  w.opt(p.name, (w, v) => w.str(v));
  w.opt(p.commissionPpm, (w, v) => w.u32(v));
  w.opt(p.rewardAddress, (w, v) => w.str(v));
  w.opt(p.taskId, (w, v) => w.str(v));
  w.opt(p.resultHash, (w, v) => w.rawHex(v, 32));
}

export function txSigningBytes(tx: UnsignedTx, chainId: string): Uint8Array {
  const w = new Writer()
    .str(TX_DOMAIN)
    .str(chainId)
    .u8(txTypeCode(tx.type))
    .str(tx.from)
    .opt(tx.to, (w, v) => w.str(v))
    .u256(tx.amount)
    .u256(tx.fee)
    .u64(tx.nonce)
    .u64(tx.gasPrice)
    .u64(tx.gasLimit)
    .u64(tx.timestamp)
    .rawHex(tx.pubKey, 33);
  writePayload(w, tx.payload);
  return w.finish();
}

export function txHashBytes(tx: UnsignedTx, chainId: string): Uint8Array {
  return sha256(txSigningBytes(tx, chainId));
}

export function txHash(tx: UnsignedTx, chainId: string): string {
  return bytesToHex(txHashBytes(tx, chainId));
}

/** Signs `tx` with `privateKey`; pub_key is set from the key. */
export function signTx(tx: Omit<UnsignedTx, 'pubKey'>, privateKey: Uint8Array, chainId: string): Tx {
  const unsigned: UnsignedTx = { ...tx, pubKey: publicKeyHexOf(privateKey) };
  return { ...unsigned, signature: signDigestHex(txHashBytes(unsigned, chainId), privateKey) };
}

/**
 * Null when the signature is valid for `chainId` and `from` is the address of `pub_key`;
 * otherwise the failure. Costs one public-key recovery: callers remember the answer by hash.
 */
export function checkTxSignature(tx: Tx, chainId: string): TxFailure | null {
  if (accountAddressOf(tx.pubKey) !== tx.from) {
    return txFailure('PUBKEY_MISMATCH', `from_address ${tx.from} is not the address of pub_key`);
  }
  if (!verifyDigest(txHashBytes(tx, chainId), tx.signature, tx.pubKey)) {
    return txFailure(
      'INVALID_SIGNATURE',
      `invalid signature: not made by pub_key over this transaction for chain ${chainId}`,
    );
  }
  return null;
}
