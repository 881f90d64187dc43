/**
 * The JSON form of blocks (RPC /block/{height}, storage, gossip) and its strict parser.
 * Header fields are the specification's plus chain_id, gas_used, gas_limit (DESIGN decision 2)
 * and round (needed to check the proposer). Each transaction also carries its tx_hash.
 */

import { txHash } from '../tx/signing.js';
import type { Tx } from '../tx/types.js';
import { type TxJson, txFromJson, txToJson } from '../tx/wire.js';
import type { Block, BlockHeader } from './header.js';
import { headerFormatProblem } from './header.js';

export interface BlockHeaderJson {
  height: number;
  prev_hash: string;
  timestamp: number;
  proposer_address: string;
  compute_root: string;
  tx_root: string;
  state_root: string;
  signature: string;
  pub_key: string;
  chain_id: string;
  gas_used: number;
  gas_limit: number;
  round: number;
}

export interface BlockJson {
  header: BlockHeaderJson;
  txs: (TxJson & { tx_hash: string })[];
}

export function headerToJson(h: BlockHeader): BlockHeaderJson {
  return {
    height: h.height,
    prev_hash: h.prevHash,
    timestamp: h.timestamp,
    proposer_address: h.proposerAddress,
    compute_root: h.computeRoot,
    tx_root: h.txRoot,
    state_root: h.stateRoot,
    signature: h.signature,
    pub_key: h.pubKey,
    chain_id: h.chainId,
    gas_used: h.gasUsed,
    gas_limit: h.gasLimit,
    round: h.round,
  };
}

export function blockToJson(block: Block): BlockJson {
  const chainId = block.header.chainId;
  return {
    header: headerToJson(block.header),
    txs: block.txs.map((tx) => ({ ...txToJson(tx), tx_hash: txHash(tx, chainId) })),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses an untrusted block JSON; returns the block or the reason it is malformed. */
export function blockFromJson(input: unknown): { ok: true; block: Block } | { ok: false; reason: string } {
  if (!isObject(input) || !isObject(input.header) || !Array.isArray(input.txs))
    return { ok: false, reason: 'block must be {header, txs}' };
  const j = input.header;
  const str = (k: string) => (typeof j[k] === 'string' ? (j[k] as string) : null);
  const num = (k: string) => (typeof j[k] === 'number' ? (j[k] as number) : null);
  const fields = {
    chainId: str('chain_id'),
    height: num('height'),
    round: num('round'),
    prevHash: str('prev_hash'),
    timestamp: num('timestamp'),
    proposerAddress: str('proposer_address'),
    pubKey: str('pub_key'),
    txRoot: str('tx_root'),
    computeRoot: str('compute_root'),
    stateRoot: str('state_root'),
    gasUsed: num('gas_used'),
    gasLimit: num('gas_limit'),
    signature: str('signature'),
  };
  for (const [name, value] of Object.entries(fields))
    if (value === null) return { ok: false, reason: `header.${name} is missing or mistyped` };
  const header = fields as unknown as BlockHeader;
  const problem = headerFormatProblem(header);
  if (problem) return { ok: false, reason: `header: ${problem}` };
  const txs: Tx[] = [];
  for (const [i, raw] of input.txs.entries()) {
    if (!isObject(raw)) return { ok: false, reason: `txs[${i}] must be an object` };
    const { tx_hash: _ignored, ...rest } = raw;
    const parsed = txFromJson(rest);
    if (!parsed.ok) return { ok: false, reason: `txs[${i}]: ${parsed.reason}` };
    txs.push(parsed.tx);
  }
  return { ok: true, block: { header, txs } };
}
