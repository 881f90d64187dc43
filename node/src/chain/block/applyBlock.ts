/**
 * The state transition: applyBlock(state, block) -> { state, outcomes }. Pure: the same state
 * and block always give the same result, and the input state is never modified.
 * Within a block, in this order:
 *   1. a protocol upgrade due at this height is applied (and block 1 of a chain born at 1.2.0 or
 *      later names its genesis: genesisName.ts);
 *   2. matured unbonding entries are paid back;
 *   3. proposer slots are counted (the round's proposer produced; rounds before it missed);
 *   4. transactions execute in block order (a failing one changes nothing);
 *   5. the block reward is minted and, with the fees, distributed to the proposer's split;
 *   6. at heights that are multiples of the epoch length, the epoch transition runs.
 * `buildBlock` runs the same steps for a proposer and fills in the roots and signature.
 */

import { validatorAddressOf } from '../../crypto/address.js';
import { publicKeyHexOf } from '../../crypto/keys.js';
import { BlockError, type TxFailure } from '../errors.js';
import type { BlockContext, ComputeResult } from '../execute/context.js';
import { executeTx } from '../execute/executeTx.js';
import { StateDraft } from '../state/draft.js';
import { stateRoot } from '../state/root.js';
import { type ChainState, epochOfBlock, type UnbondingEntry } from '../state/types.js';
import { checkTxSignature } from '../tx/signing.js';
import { BASE_GAS, type Tx } from '../tx/types.js';
import { type EpochEvent, epochTransition } from './epoch.js';
import { nameGenesisAtBlockOne } from './genesisName.js';
import {
  type Block,
  type BlockHeader,
  blockHash,
  computeRoot,
  encodeBlockTxs,
  headerFormatProblem,
  signHeader,
  verifyHeaderSignature,
} from './header.js';
import { activeValidators, scheduledProposer, slotOutcome } from './proposer.js';
import { blockReward, distributeReward } from './rewards.js';
import { releaseMatured } from './unbonding.js';
import { applyDueUpgrade, type MigrationRegistry } from './upgrades.js';

export interface TxOutcome {
  readonly txHash: string;
  readonly gasUsed: number;
  /** null when the transaction executed; its failure otherwise (it then changed nothing). */
  readonly error: TxFailure | null;
}

export interface BlockResult {
  readonly state: ChainState;
  readonly outcomes: readonly TxOutcome[];
  readonly reward: bigint;
  readonly fees: bigint;
  readonly epochEvents: readonly EpochEvent[];
  readonly released: readonly UnbondingEntry[];
  readonly upgradedTo: string | null;
}

export interface ApplyOptions {
  readonly migrations?: MigrationRegistry;
  /**
   * The hash of the chain's block 0, which the migration to 1.2.0 writes into the state
   * (genesisName.ts). The node always gives it; without it, that migration cannot run.
   */
  readonly genesisHash?: string;
  /**
   * Signature check of one transaction; the node passes one that remembers answers by hash
   * (each signature is verified once per node). Defaults to a full check.
   */
  readonly isSignatureValid?: (tx: Tx, txHash: string, chainId: string) => boolean;
}

const defaultSignatureCheck = (tx: Tx, _hash: string, chainId: string) =>
  checkTxSignature(tx, chainId) === null;

interface BodyResult extends Omit<BlockResult, 'state'> {
  readonly draft: StateDraft;
  readonly computeResults: readonly ComputeResult[];
  readonly gasUsed: number;
}

export function gasOf(txs: readonly Tx[]): number {
  return txs.reduce((sum, tx) => sum + BASE_GAS[tx.type], 0);
}

function executeBody(
  state: ChainState,
  txs: readonly Tx[],
  hashes: readonly string[],
  at: { height: number; round: number; timestamp: number },
  opts: ApplyOptions,
): BodyResult {
  const d = new StateDraft(state);
  const upgradedTo = applyDueUpgrade(d, at.height, opts.migrations ?? [], {
    genesisHash: opts.genesisHash ?? null,
  });
  nameGenesisAtBlockOne(d, at.height);
  const released = releaseMatured(d, at.height);

  const active = activeValidators(state);
  if (active.length === 0)
    throw new BlockError('NO_ACTIVE_VALIDATORS', 'no active validators: the chain cannot progress');
  const slots = slotOutcome(active, at.height, at.round);
  active.forEach((v, i) => {
    const produced = i === slots.producer ? 1 : 0;
    if (produced === 0 && slots.missed[i] === 0) return;
    const current = d.validator(v.address)!;
    d.setValidator({
      ...current,
      slotsProduced: current.slotsProduced + produced,
      slotsMissed: current.slotsMissed + slots.missed[i]!,
    });
  });

  const epoch = epochOfBlock(at.height, d.params.epochLength);
  const computeResults: ComputeResult[] = [];
  const outcomes: TxOutcome[] = [];
  let fees = 0n;
  txs.forEach((tx, i) => {
    const ctx: BlockContext = {
      height: at.height,
      timestamp: at.timestamp,
      epoch,
      txHash: hashes[i]!,
      computeResults,
    };
    const r = executeTx(d, tx, ctx);
    fees += r.fee;
    outcomes.push({ txHash: hashes[i]!, gasUsed: BASE_GAS[tx.type], error: r.failure });
  });

  const reward = blockReward(at.height, d.params);
  d.mint(reward);
  const proposer = d.validator(active[slots.producer]!.address)!;
  distributeReward(d, proposer, reward + fees, epoch);

  const epochEvents = at.height % d.params.epochLength === 0 ? epochTransition(d, at.height) : [];
  return {
    draft: d,
    outcomes,
    reward,
    fees,
    epochEvents,
    released,
    upgradedTo,
    computeResults,
    gasUsed: gasOf(txs),
  };
}

/**
 * The next state, finished once. Its lastBlockHash is filled in after the header exists: the
 * state root does not cover it (state/types.ts), so the root can be taken before.
 */
function finishState(body: BodyResult, height: number, timestamp: number): ChainState {
  return body.draft.finish({ height, hash: '', timestamp });
}

function toResult(body: BodyResult, state: ChainState, header: BlockHeader): BlockResult {
  const { draft: _d, computeResults: _c, gasUsed: _g, ...rest } = body;
  return { state: { ...state, lastBlockHash: blockHash(header) }, ...rest };
}

/** Validates `block` on top of `state` and returns the next state; throws BlockError if invalid. */
export function applyBlock(state: ChainState, block: Block, opts: ApplyOptions = {}): BlockResult {
  const h = block.header;
  const p = state.params;
  const format = headerFormatProblem(h);
  if (format) throw new BlockError('MALFORMED', format);
  if (h.chainId !== p.chainId)
    throw new BlockError('WRONG_CHAIN', `block is for chain ${h.chainId}, not ${p.chainId}`);
  if (h.height !== state.height + 1)
    throw new BlockError('WRONG_HEIGHT', `expected height ${state.height + 1}, got ${h.height}`);
  if (h.prevHash !== state.lastBlockHash)
    throw new BlockError(
      'WRONG_PREV_HASH',
      `prev_hash ${h.prevHash} is not the hash of block ${state.height}`,
    );
  if (h.timestamp < state.lastTimestamp)
    throw new BlockError(
      'TIMESTAMP_BEFORE_PARENT',
      `timestamp ${h.timestamp} is before its parent's ${state.lastTimestamp}`,
    );
  const proposer = scheduledProposer(state, h.height, h.round);
  if (h.proposerAddress !== proposer.address || h.pubKey !== proposer.pubKey)
    throw new BlockError(
      'WRONG_PROPOSER',
      `height ${h.height} round ${h.round} is ${proposer.address}'s, not ${h.proposerAddress}'s`,
    );
  if (!verifyHeaderSignature(h))
    throw new BlockError('BAD_PROPOSER_SIGNATURE', "block signature is not the proposer's");

  const check = opts.isSignatureValid ?? defaultSignatureCheck;
  const { hashes, txRoot: blockTxRoot } = encodeBlockTxs(block.txs, p.chainId);
  block.txs.forEach((tx, i) => {
    if (!check(tx, hashes[i]!, p.chainId))
      throw new BlockError('BAD_TX_SIGNATURE', `transaction ${hashes[i]} has an invalid signature`);
  });
  if (blockTxRoot !== h.txRoot)
    throw new BlockError('BAD_TX_ROOT', 'tx_root does not match the transactions');
  const gasUsed = gasOf(block.txs);
  if (h.gasLimit !== p.blockGasLimit) throw new BlockError('BAD_GAS', `gas_limit must be ${p.blockGasLimit}`);
  if (gasUsed !== h.gasUsed || gasUsed > h.gasLimit)
    throw new BlockError('BAD_GAS', `gas_used ${h.gasUsed} must be ${gasUsed} and at most ${h.gasLimit}`);

  const body = executeBody(state, block.txs, hashes, h, opts);
  if (computeRoot(body.computeResults) !== h.computeRoot)
    throw new BlockError('BAD_COMPUTE_ROOT', "compute_root does not match the block's results");
  const next = finishState(body, h.height, h.timestamp);
  const root = stateRoot(next);
  if (root !== h.stateRoot)
    throw new BlockError(
      'BAD_STATE_ROOT',
      `state_root ${h.stateRoot} does not match the executed state ${root}`,
    );
  return toResult(body, next, h);
}

export interface BuildInput {
  readonly timestamp: number;
  readonly round: number;
  readonly privateKey: Uint8Array;
}

/**
 * What a proposer does: takes the longest prefix of `txs` that fits the block gas limit,
 * executes it, and returns the signed block with its result. Throws if the key is not the
 * scheduled proposer for (state.height + 1, round).
 */
export function buildBlock(
  state: ChainState,
  txs: readonly Tx[],
  input: BuildInput,
  opts: ApplyOptions = {},
): { block: Block; result: BlockResult } {
  const p = state.params;
  const height = state.height + 1;
  const pubKey = publicKeyHexOf(input.privateKey);
  const proposer = scheduledProposer(state, height, input.round);
  if (proposer.address !== validatorAddressOf(pubKey))
    throw new BlockError(
      'WRONG_PROPOSER',
      `height ${height} round ${input.round} is ${proposer.address}'s to propose`,
    );
  const timestamp = Math.max(input.timestamp, state.lastTimestamp);
  const included: Tx[] = [];
  let gas = 0;
  for (const tx of txs) {
    if (gas + BASE_GAS[tx.type] > p.blockGasLimit) break;
    gas += BASE_GAS[tx.type];
    included.push(tx);
  }
  const { hashes, txRoot: includedRoot } = encodeBlockTxs(included, p.chainId);
  const body = executeBody(state, included, hashes, { height, round: input.round, timestamp }, opts);
  const next = finishState(body, height, timestamp);
  const header = signHeader(
    {
      chainId: p.chainId,
      height,
      round: input.round,
      prevHash: state.lastBlockHash,
      timestamp,
      proposerAddress: proposer.address,
      pubKey,
      txRoot: includedRoot,
      computeRoot: computeRoot(body.computeResults),
      stateRoot: stateRoot(next),
      gasUsed: gas,
      gasLimit: p.blockGasLimit,
    },
    input.privateKey,
  );
  return { block: { header, txs: included }, result: toResult(body, next, header) };
}
