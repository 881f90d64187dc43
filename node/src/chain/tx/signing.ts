/**
 * Signing bytes, signing digest, transaction hash and signature checks (docs/PROTOCOL.md,
 * "Signing bytes, digest, hash, signature").
 *   signing_bytes  = str("chain-tx/v1") str(chain_id) u8(type) str(from) opt(str(to))
 *                    u256(amount) u256(fee) u64(nonce) u64(gas_price) u64(gas_limit) u64(timestamp)
 *                    raw33(pub_key) payload
 *   payload        = opt(str memo) opt(str name) opt(u32 commission_ppm) opt(str reward_address)
 *                    opt(str task_id) opt(raw32 result_hash)
 *                    [str target_version u64 upgrade_height]   UPGRADE_PLAN and UPGRADE_CANCEL only
 *   signing_digest = SHA-256(signing_bytes): what the sender signs, r || s || v.
 *   tx_hash        = SHA-256(signing_bytes || signature): the transaction's identity.
 * The hash covers the signature, as Ethereum's does: a copy with any other signature (a forged
 * twin) is another transaction, and cannot take the place of the genuine one anywhere a hash is
 * a key (admission, the mempool, the signature cache, receipts). The chain id is inside the
 * signed bytes, so a transaction signed for one network fails on another.
 */
import { accountAddressOf } from '../../crypto/address.js';
import { sha256 } from '../../crypto/hash.js';
import { bytesToHex, concatBytes, hexToBytes } from '../../crypto/hex.js';
import { publicKeyHexOf } from '../../crypto/keys.js';
import { SIGNATURE_BYTES, signDigestHex, verifyDigest } from '../../crypto/signature.js';
import { Writer } from '../codec/encoding.js';
import { type TxFailure, txFailure } from '../errors.js';
import { type Tx, type TxPayload, txTypeCode, type UnsignedTx, UPGRADE_TX_TYPES } from './types.js';

export const TX_DOMAIN = 'chain-tx/v1';

function writePayload(w: Writer, p: TxPayload): void {
  w.opt(p.memo, (w, v) => w.str(v));
  w.opt(p.name, (w, v) => w.str(v));
  w.opt(p.commissionPpm, (w, v) => w.u32(v));
  w.opt(p.rewardAddress, (w, v) => w.str(v));
  w.opt(p.taskId, (w, v) => w.str(v));
  w.opt(p.resultHash, (w, v) => w.rawHex(v, 32));
}

/**
 * The plan of the extension's types, after the payload: the eight specified types' bytes stay
 * exactly as they were (an opt field added to every payload would have changed every tx_hash).
 */
function writePlan(w: Writer, tx: UnsignedTx): void {
  if (!(UPGRADE_TX_TYPES as readonly string[]).includes(tx.type)) return;
  w.str(tx.payload.targetVersion ?? '').u64(tx.payload.upgradeHeight ?? 0);
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
  writePlan(w, tx);
  return w.finish();
}

/** A transaction's signed bytes and tx_hash for one chain id. */
interface Encoded {
  readonly chainId: string;
  readonly signed: Uint8Array;
  readonly hash: string;
}

/**
 * The encodings of frozen transactions (txFromJson freezes what it decodes), each
 * computed once: a node hashed a transaction about seven times (admission, proposal, block
 * checks, tx_root, the block's JSON for storage and for the priv-validator's files). Only a
 * frozen transaction whose payload is frozen too is remembered: it cannot change, so the memo
 * always equals what encoding it again would give. Keyed by the object (weakly: it goes with
 * the transaction), and by chain id, so the same object under another chain is encoded anew.
 */
const encodings = new WeakMap<Tx, Encoded>();

function encoded(tx: Tx, chainId: string): Encoded {
  const known = encodings.get(tx);
  if (known !== undefined && known.chainId === chainId) return known;
  const signed = concatBytes(txSigningBytes(tx, chainId), hexToBytes(tx.signature, SIGNATURE_BYTES));
  const fresh: Encoded = { chainId, signed, hash: txHashOfSigned(signed) };
  if (Object.isFrozen(tx) && Object.isFrozen(tx.payload)) encodings.set(tx, fresh);
  return fresh;
}

/** A transaction made immutable (and its payload), so that its encodings are remembered. */
export function frozenTx<T extends Tx>(tx: T): T {
  Object.freeze(tx.payload);
  return Object.freeze(tx);
}

/**
 * SHA-256(signing_bytes): the digest the sender's key signs. From the remembered signed bytes when
 * the transaction's were already computed (it is hashed at admission before its signature is
 * checked); otherwise encoded here, without reading the signature.
 */
export function txSigningDigest(tx: UnsignedTx, chainId: string): Uint8Array {
  const known = encodings.get(tx as Tx);
  if (known !== undefined && known.chainId === chainId)
    return sha256(known.signed.subarray(0, known.signed.length - SIGNATURE_BYTES));
  return sha256(txSigningBytes(tx, chainId));
}

/**
 * signing_bytes || signature (65 bytes): what tx_hash covers, and a tx_root leaf. The bytes may
 * be shared with later calls for the same transaction: read them, never write into them.
 */
export function txSignedBytes(tx: Tx, chainId: string): Uint8Array {
  return encoded(tx, chainId).signed;
}

/** tx_hash of a transaction whose signed bytes (txSignedBytes) are at hand. */
export function txHashOfSigned(signedBytes: Uint8Array): string {
  return bytesToHex(sha256(signedBytes));
}

/** tx_hash = SHA-256(signing_bytes || signature), hex: the transaction's identity. */
export function txHash(tx: Tx, chainId: string): string {
  return encoded(tx, chainId).hash;
}

/** Signs `tx` with `privateKey`; pub_key is set from the key. */
export function signTx(tx: Omit<UnsignedTx, 'pubKey'>, privateKey: Uint8Array, chainId: string): Tx {
  const unsigned: UnsignedTx = { ...tx, pubKey: publicKeyHexOf(privateKey) };
  return { ...unsigned, signature: signDigestHex(txSigningDigest(unsigned, chainId), privateKey) };
}

/**
 * Null when the signature is valid for `chainId` and `from` is the address of `pub_key`;
 * otherwise the failure. Costs one public-key recovery: callers remember the answer by tx_hash
 * (which covers the signature, so the answer belongs to this exact signature).
 */
export function checkTxSignature(tx: Tx, chainId: string): TxFailure | null {
  if (accountAddressOf(tx.pubKey) !== tx.from) {
    return txFailure('PUBKEY_MISMATCH', `from_address ${tx.from} is not the address of pub_key`);
  }
  if (!verifyDigest(txSigningDigest(tx, chainId), tx.signature, tx.pubKey)) {
    return txFailure(
      'INVALID_SIGNATURE',
      `invalid signature: not made by pub_key over this transaction for chain ${chainId}`,
    );
  }
  return null;
}
