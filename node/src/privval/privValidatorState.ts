/**
 * The priv-validator state (CometBFT's FilePVLastSignState): the last height, round and step a
 * validator signed, with the bytes and the signature, its lock (its last precommit for a block),
 * the locked block itself, and the last proposal it signed. Kept in
 * <home>/priv_validator_state.json, <home>/priv_validator_locked_block.json and
 * <home>/priv_validator_proposal.json (docs/PROTOCOL.md, "Priv-validator state"); the rules below
 * decide whether a new signature may be given. Pure: no I/O.
 *
 * The proposal is kept for the same reason as the block (liveness): a proposer stopped after
 * signing its proposal may not sign another for that round, so without it a network stopped
 * mid-height lost that round on resuming (consensus/signer.ts, KeptProposal).
 *
 * The block is kept with the lock, with its polka, because the lock alone can stall a height for
 * good: a validator killed after precommitting B and before storing B resumes locked on B,
 * prevotes nil on every other block, and cannot propose B. Unlocking would be unsafe (B may be
 * final elsewhere); with B and its polka it re-proposes B with their round as pol_round, or
 * decides B at once when its own precommit is a quorum.
 *
 * CometBFT's rules, for a request at (h, r, s) against the last signed (H, R, S), steps ordered
 * propose < prevote < precommit:
 *   - (h, r, s) below (H, R, S): refused (regression: the validator has moved past it);
 *   - equal, with the same sign bytes: the recorded signature again (re-sending is fine);
 *   - equal, with other sign bytes: refused (conflict: that is double-signing);
 *   - above: signed, and recorded before the signature is used.
 */
import { blockFromJson, blockHash, blockToJson } from '../chain/index.js';
import type { KeptProposal, LockedBlock, Resume, SignRequest } from '../consensus/signer.js';
import type { Step } from '../consensus/types.js';
import { isAddress, VALIDATOR_PREFIX } from '../crypto/address.js';
import { isHex } from '../crypto/hex.js';

export interface LastSigned {
  readonly height: number;
  readonly round: number;
  readonly step: Step;
  /** The block it was for (null: a nil vote). */
  readonly blockHash: string | null;
  /** Hex of the sign bytes. */
  readonly signBytes: string;
  readonly signature: string;
}

export interface Lock {
  readonly height: number;
  readonly round: number;
  readonly blockHash: string;
}

export interface PrivValidatorState {
  readonly last: LastSigned | null;
  readonly lock: Lock | null;
  /** The block of the lock and its polka when they are known (its hash is `lock.blockHash`); else null. */
  readonly lockedBlock: LockedBlock | null;
  /** The last proposal it signed, when it is known; else null. */
  readonly proposal: KeptProposal | null;
}

/** A validator that has never signed. */
export const NEVER_SIGNED: PrivValidatorState = { last: null, lock: null, lockedBlock: null, proposal: null };

const STEP_RANK: Record<Step, number> = { propose: 1, prevote: 2, precommit: 3 };

export type RefusalReason = 'regression' | 'conflict';

export type SignDecision =
  | { readonly kind: 'sign' }
  | { readonly kind: 'same'; readonly signature: string }
  | { readonly kind: 'refuse'; readonly reason: RefusalReason; readonly detail: string };

const hrs = (h: number, r: number, s: Step) => `height ${h} round ${r} ${s}`;

export function decideSign(state: PrivValidatorState, req: SignRequest, signBytesHex: string): SignDecision {
  const last = state.last;
  if (last === null) return { kind: 'sign' };
  const order =
    Math.sign(req.height - last.height) ||
    Math.sign(req.round - last.round) ||
    Math.sign(STEP_RANK[req.step] - STEP_RANK[last.step]);
  if (order > 0) return { kind: 'sign' };
  const asked = hrs(req.height, req.round, req.step);
  const signed = hrs(last.height, last.round, last.step);
  if (order < 0)
    return { kind: 'refuse', reason: 'regression', detail: `${asked} is below the last signed, ${signed}` };
  if (signBytesHex === last.signBytes) return { kind: 'same', signature: last.signature };
  return {
    kind: 'refuse',
    reason: 'conflict',
    detail: `${asked} was already signed for other bytes (${last.signBytes.slice(0, 16)}…)`,
  };
}

/**
 * The state once `req` is signed: the new last signature; when it is a precommit for a block, the
 * new lock with its block (the request's, or the one already kept for that hash); when it is a
 * proposal, that proposal.
 */
export function afterSigning(
  state: PrivValidatorState,
  req: SignRequest,
  signBytesHex: string,
  signature: string,
): PrivValidatorState & { readonly last: LastSigned } {
  const locks = req.step === 'precommit' && req.blockHash !== null;
  const lock = locks ? { height: req.height, round: req.round, blockHash: req.blockHash! } : state.lock;
  const lockedBlock = !locks
    ? state.lockedBlock
    : (req.locked ?? (state.lock?.blockHash === req.blockHash ? state.lockedBlock : null));
  return {
    last: {
      height: req.height,
      round: req.round,
      step: req.step,
      blockHash: req.blockHash,
      signBytes: signBytesHex,
      signature,
    },
    lock,
    lockedBlock,
    proposal:
      req.step === 'propose' && req.proposed !== undefined
        ? { block: req.proposed.block, round: req.round, polRound: req.proposed.polRound, signature }
        : state.proposal,
  };
}

/** `kept` when it is the block of `lock` (a file left from another lock is not). */
export function blockOfLock(lock: Lock | null, kept: LockedBlock | null): LockedBlock | null {
  return lock !== null && kept !== null && blockHash(kept.block.header) === lock.blockHash ? kept : null;
}

/**
 * `kept` when it is the proposal of (`height`, `round`) and, if the last signature is a proposal,
 * that one (a file newer than the state was never sent: its proposer is asked to sign again).
 */
function proposalAt(state: PrivValidatorState, height: number, round: number): KeptProposal | null {
  const kept = state.proposal;
  const last = state.last;
  if (kept === null || last === null || kept.block.header.height !== height || kept.round !== round)
    return null;
  return last.step !== 'propose' || last.blockHash === blockHash(kept.block.header) ? kept : null;
}

/**
 * Where a validator that signed `state` resumes `height`: its last signature there, its lock
 * there with the locked block when it is kept, and its proposal of that round when it is kept.
 */
export function resumeAt(state: PrivValidatorState, height: number): Resume | null {
  const last = state.last;
  if (last === null || last.height !== height) return null;
  const lock = state.lock?.height === height ? state.lock : null;
  return {
    round: last.round,
    last: { step: last.step, blockHash: last.blockHash, signature: last.signature },
    lock:
      lock === null
        ? null
        : { round: lock.round, blockHash: lock.blockHash, kept: blockOfLock(lock, state.lockedBlock) },
    proposal: proposalAt(state, height, last.round),
  };
}

/** The file's JSON (docs/PROTOCOL.md): written once something was signed (a missing file is NEVER_SIGNED). */
export function stateToJson(last: LastSigned, lock: Lock | null): Record<string, unknown> {
  return {
    height: last.height,
    round: last.round,
    step: last.step,
    block_hash: last.blockHash,
    sign_bytes: last.signBytes,
    signature: last.signature,
    lock: lock === null ? null : { height: lock.height, round: lock.round, block_hash: lock.blockHash },
  };
}

const isUint = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** Far above the longest sign bytes (a proposal's with a 64-byte chain id is under 200). */
const MAX_SIGN_BYTES = 1024;

/** The state in the file's JSON (the locked block comes from its own file), or what is wrong with it (named by field). */
export function stateFromJson(j: unknown): Omit<PrivValidatorState, 'lockedBlock' | 'proposal'> | string {
  if (!isObject(j)) return 'not a JSON object';
  if (!isUint(j.height)) return 'height must be a non-negative integer';
  if (!isUint(j.round, 0xffffffff)) return 'round must be an integer from 0 to 2^32 - 1';
  const step = j.step;
  if (step !== 'propose' && step !== 'prevote' && step !== 'precommit')
    return 'step must be propose, prevote or precommit';
  const blockHash = j.block_hash;
  if (blockHash !== null && (typeof blockHash !== 'string' || !isHex(blockHash, 32)))
    return 'block_hash must be 64 hex or null';
  if (blockHash === null && step === 'propose') return 'block_hash of a proposal cannot be null';
  if (
    typeof j.sign_bytes !== 'string' ||
    j.sign_bytes.length === 0 ||
    j.sign_bytes.length > 2 * MAX_SIGN_BYTES ||
    !isHex(j.sign_bytes)
  )
    return 'sign_bytes must be lowercase hex';
  if (typeof j.signature !== 'string' || !isHex(j.signature, 65)) return 'signature must be 130 hex';
  const last: LastSigned = {
    height: j.height,
    round: j.round,
    step,
    blockHash,
    signBytes: j.sign_bytes,
    signature: j.signature,
  };
  if (j.lock === null) return { last, lock: null };
  const l = j.lock;
  if (!isObject(l) || !isUint(l.height) || !isUint(l.round, 0xffffffff))
    return 'lock must be null or {height, round, block_hash}';
  if (typeof l.block_hash !== 'string' || !isHex(l.block_hash, 32)) return 'lock.block_hash must be 64 hex';
  return { last, lock: { height: l.height, round: l.round, blockHash: l.block_hash } };
}

/** The locked-block file's JSON (docs/PROTOCOL.md): the polka's round, the block, the prevotes' signatures. */
export function lockedBlockToJson(kept: LockedBlock): Record<string, unknown> {
  return {
    round: kept.round,
    block: blockToJson(kept.block),
    prevotes: kept.prevotes.map((v) => ({ validator: v.validator, signature: v.signature })),
  };
}

/** Far above any active set: a bound on what a damaged file can make the node hold. */
const MAX_POLKA_VOTES = 10_000;

/** The locked block in the file's JSON, or what is wrong with it (named by field). */
export function lockedBlockFromJson(j: unknown): LockedBlock | string {
  if (!isObject(j)) return 'not a JSON object';
  if (!isUint(j.round, 0xffffffff)) return 'round must be an integer from 0 to 2^32 - 1';
  const parsed = blockFromJson(j.block);
  if (!parsed.ok) return `block: ${parsed.reason}`;
  if (!Array.isArray(j.prevotes) || j.prevotes.length > MAX_POLKA_VOTES)
    return `prevotes must be an array of at most ${MAX_POLKA_VOTES}`;
  const block = parsed.block;
  const hash = blockHash(block.header);
  const prevotes = [];
  for (const [i, v] of j.prevotes.entries()) {
    if (!isObject(v) || typeof v.validator !== 'string' || !isAddress(v.validator, VALIDATOR_PREFIX))
      return `prevotes[${i}].validator must be a coinvalcons1 address`;
    if (typeof v.signature !== 'string' || !isHex(v.signature, 65))
      return `prevotes[${i}].signature must be 130 hex`;
    prevotes.push({
      kind: 'prevote' as const,
      height: block.header.height,
      round: j.round,
      blockHash: hash,
      validator: v.validator,
      signature: v.signature,
    });
  }
  return { block, round: j.round, prevotes };
}

/** The proposal file's JSON (docs/PROTOCOL.md): the round, pol_round, the block and the signature. */
export function proposalToJson(kept: KeptProposal): Record<string, unknown> {
  return {
    round: kept.round,
    pol_round: kept.polRound,
    block: blockToJson(kept.block),
    signature: kept.signature,
  };
}

/** The kept proposal in the file's JSON (its signature is checked by the reader), or what is wrong with it (named by field). */
export function proposalFromJson(j: unknown): KeptProposal | string {
  if (!isObject(j)) return 'not a JSON object';
  if (!isUint(j.round, 0xffffffff)) return 'round must be an integer from 0 to 2^32 - 1';
  const polRound = j.pol_round;
  if (!Number.isSafeInteger(polRound) || (polRound as number) < -1 || (polRound as number) >= j.round)
    return 'pol_round must be an integer from -1 to round - 1';
  const parsed = blockFromJson(j.block);
  if (!parsed.ok) return `block: ${parsed.reason}`;
  if (typeof j.signature !== 'string' || !isHex(j.signature, 65)) return 'signature must be 130 hex';
  return { block: parsed.block, round: j.round, polRound: polRound as number, signature: j.signature };
}
