/**
 * Blocks: header bytes, block hash, the three Merkle roots and the proposer signature
 * (docs/PROTOCOL.md, "Blocks").
 *   header_bytes = str("chain-block/v1") str(chain_id) u64(height) u32(round) raw32(prev_hash)
 *                  u64(timestamp) str(proposer_address) bytes(pub_key) raw32(tx_root)
 *                  raw32(compute_root) raw32(state_root) u64(gas_used) u64(gas_limit)
 *   block_hash   = SHA-256(header_bytes); signature = ECDSA(block_hash) by the proposer's key.
 * The signature is outside the hashed bytes, so a block's hash never depends on it.
 */
import { sha256 } from '../../crypto/hash.js';
import { bytesToHex, hexToBytes, isHex } from '../../crypto/hex.js';
import { signDigestHex, verifyDigestForKnownKey } from '../../crypto/signature.js';
import { Writer } from '../codec/encoding.js';
import { merkleRoot } from '../codec/merkle.js';
import type { ComputeResult } from '../execute/context.js';
import { txHash, txSignedBytes } from '../tx/signing.js';
import type { Tx } from '../tx/types.js';

export const BLOCK_DOMAIN = 'chain-block/v1';
export const ZERO_HASH = '0'.repeat(64);

export interface BlockHeader {
  readonly chainId: string;
  readonly height: number;
  /** Consensus round in which this block was proposed (0 when its round-0 proposer delivered). */
  readonly round: number;
  readonly prevHash: string;
  readonly timestamp: number;
  readonly proposerAddress: string;
  readonly pubKey: string;
  readonly txRoot: string;
  readonly computeRoot: string;
  readonly stateRoot: string;
  readonly gasUsed: number;
  readonly gasLimit: number;
  readonly signature: string;
}

export interface Block {
  readonly header: BlockHeader;
  readonly txs: readonly Tx[];
}

export function headerBytes(h: Omit<BlockHeader, 'signature'>): Uint8Array {
  return new Writer()
    .str(BLOCK_DOMAIN)
    .str(h.chainId)
    .u64(h.height)
    .u32(h.round)
    .rawHex(h.prevHash, 32)
    .u64(h.timestamp)
    .str(h.proposerAddress)
    .bytes(hexToBytes(h.pubKey))
    .rawHex(h.txRoot, 32)
    .rawHex(h.computeRoot, 32)
    .rawHex(h.stateRoot, 32)
    .u64(h.gasUsed)
    .u64(h.gasLimit)
    .finish();
}

export function blockHashBytes(h: Omit<BlockHeader, 'signature'>): Uint8Array {
  return sha256(headerBytes(h));
}

export function blockHash(h: Omit<BlockHeader, 'signature'>): string {
  return bytesToHex(blockHashBytes(h));
}

/**
 * The hashes and the tx_root of a block's transactions, encoding each one once: its signed bytes
 * (signing bytes || signature) are both the tx_root leaf and what tx_hash covers.
 */
export function encodeBlockTxs(txs: readonly Tx[], chainId: string): { hashes: string[]; txRoot: string } {
  const hashes: string[] = [];
  const leaves: Uint8Array[] = [];
  for (const tx of txs) {
    hashes.push(txHash(tx, chainId));
    leaves.push(txSignedBytes(tx, chainId));
  }
  return { hashes, txRoot: bytesToHex(merkleRoot(leaves)) };
}

export function txRoot(txs: readonly Tx[], chainId: string): string {
  return encodeBlockTxs(txs, chainId).txRoot;
}

/** Leaf data of a compute result: str(task_id) || raw32(result_hash) || str(worker address). */
export function computeRoot(results: readonly ComputeResult[]): string {
  return bytesToHex(
    merkleRoot(
      results.map((r) => new Writer().str(r.taskId).rawHex(r.resultHash, 32).str(r.worker).finish()),
    ),
  );
}

export function signHeader(h: Omit<BlockHeader, 'signature'>, privateKey: Uint8Array): BlockHeader {
  return { ...h, signature: signDigestHex(blockHashBytes(h), privateKey) };
}

/** Checks the proposer's signature; pub_key is a validator's (a known key: see verifyDigestForKnownKey). */
export function verifyHeaderSignature(h: BlockHeader): boolean {
  return verifyDigestForKnownKey(blockHashBytes(h), h.signature, h.pubKey);
}

/** Format problems of a header's fields (hex lengths, integer ranges), or null. */
export function headerFormatProblem(h: BlockHeader): string | null {
  for (const [name, v] of [
    ['prev_hash', h.prevHash],
    ['tx_root', h.txRoot],
    ['compute_root', h.computeRoot],
    ['state_root', h.stateRoot],
  ] as const) {
    if (!isHex(v, 32)) return `${name} must be 64 lowercase hex`;
  }
  if (h.pubKey !== '' && !isHex(h.pubKey, 33)) return 'pub_key must be 66 lowercase hex';
  if (h.signature !== '' && !isHex(h.signature, 65)) return 'signature must be 130 lowercase hex';
  for (const [name, v] of [
    ['height', h.height],
    ['timestamp', h.timestamp],
    ['gas_used', h.gasUsed],
    ['gas_limit', h.gasLimit],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0) return `${name} must be a non-negative integer`;
  }
  if (!Number.isInteger(h.round) || h.round < 0 || h.round > 0xffffffff) return 'round must be a u32';
  return null;
}
