/**
 * <home>/priv_validator_state.json: the validator's last signature and lock (format in
 * docs/PROTOCOL.md, "Priv-validator state"), read once at start and rewritten durably before
 * each new signature leaves the node; <home>/priv_validator_locked_block.json, the block of the
 * lock, written before the precommit that moves the lock to it; and
 * <home>/priv_validator_proposal.json, the last proposal signed, written before the state file
 * records it (a restarted proposer sends it again: consensus/signer.ts, KeptProposal). Each is replaced durably: the
 * JSON goes to a temporary file, which is fsynced, renamed over the old one, and the folder
 * fsynced, so that after a crash at any moment a file holds either the old content or the new
 * one, never a torn one. The writes are synchronous, as in CometBFT: the consensus core signs
 * synchronously and must not count or send a vote whose record is not on disk (two fsyncs, and
 * two more once per lock, measured in docs/BENCHMARKS.md).
 *
 * A missing state file is a validator that never signed. A state file that cannot be read,
 * parsed or checked stops the node: starting over from nothing is exactly how a validator
 * double-signs. The block and proposal files only bring liveness (safety rests on the state
 * file): one that is missing, unreadable, of another lock or height, or not signed by this key is
 * logged and left aside.
 */
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import { blockHash, verifyProposalSignature } from '../chain/index.js';
import { sha256 } from '../crypto/hash.js';
import { hexToBytes } from '../crypto/hex.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import { verifyDigest } from '../crypto/signature.js';
import { REAL_FILES, replaceDurably, type SyncFiles } from '../disk/files.js';
import type { DiskHealth } from '../disk/health.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import {
  blockOfLock,
  CheckedSigner,
  type KeptProposal,
  type LastSigned,
  type Lock,
  type LockedBlock,
  lockedBlockFromJson,
  lockedBlockToJson,
  NEVER_SIGNED,
  type PrivValidatorState,
  proposalFromJson,
  proposalToJson,
  stateFromJson,
  stateToJson,
} from '../privval/index.js';
import { JsonFileError, readJsonFile } from '../util/jsonFile.js';

export const PRIV_VALIDATOR_STATE_FILE = 'priv_validator_state.json';
export const LOCKED_BLOCK_FILE = 'priv_validator_locked_block.json';
export const PROPOSAL_FILE = 'priv_validator_proposal.json';

/** The state file cannot be used; the message says what to do. */
export class PrivValidatorError extends Error {
  override readonly name = 'PrivValidatorError';
}

function unusable(path: string, why: string): PrivValidatorError {
  return new PrivValidatorError(
    `${path} ${why}. This file keeps the validator from signing twice at one height and round; ` +
      'the node does not start without it. Restore it from a backup. If it is lost for good, keep ' +
      'this validator stopped until the chain has committed a height above the last one it may have ' +
      'signed at, then remove the file and start.',
  );
}

/** The state in `path` (NEVER_SIGNED when there is no file), checked against `privateKey`; no locked block yet. */
export async function readPrivValidatorState(
  path: string,
  privateKey: Uint8Array,
): Promise<PrivValidatorState> {
  let json: unknown;
  try {
    json = await readJsonFile(path);
  } catch (e) {
    throw e instanceof JsonFileError ? unusable(path, e.why) : e;
  }
  if (json === undefined) return NEVER_SIGNED;
  const state = stateFromJson(json);
  if (typeof state === 'string') throw unusable(path, `is not a priv-validator state: ${state}`);
  const last = state.last!;
  if (!verifyDigest(sha256(hexToBytes(last.signBytes)), last.signature, publicKeyHexOf(privateKey)))
    throw unusable(path, 'holds a signature that is not this validator key’s (another validator’s file?)');
  return { ...state, lockedBlock: null, proposal: null };
}

/** A side file of the state (liveness only): its value, null when there is none, or why it cannot be used. */
async function readSideFile<T>(
  path: string,
  parse: (json: unknown) => T | string,
): Promise<T | null | { problem: string }> {
  let json: unknown;
  try {
    json = await readJsonFile(path);
  } catch (e) {
    if (e instanceof JsonFileError) return { problem: e.why };
    throw e;
  }
  if (json === undefined) return null;
  const value = parse(json);
  return typeof value === 'string' ? { problem: value } : value;
}

/** The locked block and its polka in `path` (null when there is none), or why they cannot be used. */
export function readLockedBlock(path: string): Promise<LockedBlock | null | { problem: string }> {
  return readSideFile(path, lockedBlockFromJson);
}

/** The proposal in `path` signed by `privateKey`'s validator (null when there is none), or why it cannot be used. */
export async function readKeptProposal(
  path: string,
  privateKey: Uint8Array,
): Promise<KeptProposal | null | { problem: string }> {
  const kept = await readSideFile(path, proposalFromJson);
  if (kept === null || 'problem' in kept) return kept;
  const { header } = kept.block;
  const signed = { ...kept, height: header.height, blockHash: blockHash(header) };
  if (!verifyProposalSignature(header.chainId, signed, publicKeyHexOf(privateKey)))
    return { problem: 'holds a signature that is not this validator key’s' };
  return kept;
}

export function writePrivValidatorState(
  path: string,
  last: LastSigned,
  lock: Lock | null,
  files: SyncFiles = REAL_FILES,
): void {
  replaceDurably(path, `${JSON.stringify(stateToJson(last, lock), null, 2)}\n`, files);
}

export function writeLockedBlock(path: string, kept: LockedBlock, files: SyncFiles = REAL_FILES): void {
  replaceDurably(path, `${JSON.stringify(lockedBlockToJson(kept))}\n`, files);
}

export function writeKeptProposal(path: string, kept: KeptProposal, files: SyncFiles = REAL_FILES): void {
  replaceDurably(path, `${JSON.stringify(proposalToJson(kept))}\n`, files);
}

export interface PrivValidatorOptions {
  /**
   * TEST ONLY (--fail-point lock-recorded): called once a new lock and its block are on disk,
   * before the precommit's signature is returned; the node uses it to kill itself there.
   */
  readonly afterLockRecorded?: () => void;
  /** TEST ONLY (--fail-point proposal-recorded): called once a new proposal is on disk, before its signature is returned. */
  readonly afterProposalRecorded?: () => void;
  /** The system calls the files are replaced with (TEST ONLY: the disk fault layer's, disk/files.ts); the disk's when absent. */
  readonly files?: SyncFiles;
  /** Told of each failed and good write (it logs a failure once and shows it in GET /status); absent: each withheld signature is logged. */
  readonly health?: Pick<DiskHealth, 'failed' | 'succeeded'>;
}

/** The block of `signed`'s lock kept in `path`, or null (none, or a file left aside and logged). */
async function lockedBlockOf(
  signed: PrivValidatorState,
  path: string,
  logger: Logger,
): Promise<LockedBlock | null> {
  const kept = signed.lock === null ? null : await readLockedBlock(path);
  if (kept === null) return null;
  if ('problem' in kept) {
    logger.warn(
      `locked block file ${kept.problem}: left aside (a restart locked on it cannot re-propose it)`,
      {
        path,
      },
    );
    return null;
  }
  const lockedBlock = blockOfLock(signed.lock, kept);
  if (lockedBlock === null) logger.info('locked block file is of an earlier lock: left aside', { path });
  return lockedBlock;
}

/** The proposal kept in `path` when it is of the height `signed` last signed at, or null (a file left aside is logged). */
async function proposalOf(
  signed: PrivValidatorState,
  path: string,
  privateKey: Uint8Array,
  logger: Logger,
): Promise<KeptProposal | null> {
  const kept = signed.last === null ? null : await readKeptProposal(path, privateKey);
  if (kept === null) return null;
  if ('problem' in kept) {
    logger.warn(`proposal file ${kept.problem}: left aside (a restart cannot send that proposal again)`, {
      path,
    });
    return null;
  }
  return kept.block.header.height === signed.last!.height ? kept : null;
}

/** The validator's signer over its files in `home`: refusals are logged and counted. */
export async function openPrivValidator(
  home: string,
  privateKey: Uint8Array,
  metrics: NodeMetrics,
  logger: Logger,
  options: PrivValidatorOptions = {},
): Promise<CheckedSigner> {
  const path = join(home, PRIV_VALIDATOR_STATE_FILE);
  const blockPath = join(home, LOCKED_BLOCK_FILE);
  const proposalPath = join(home, PROPOSAL_FILE);
  const signed = await readPrivValidatorState(path, privateKey);
  const state: PrivValidatorState = {
    ...signed,
    lockedBlock: await lockedBlockOf(signed, blockPath, logger),
    proposal: await proposalOf(signed, proposalPath, privateKey, logger),
  };
  if (state.last !== null)
    logger.info('priv-validator state loaded', {
      height: state.last.height,
      round: state.last.round,
      step: state.last.step,
      locked: state.lock,
      locked_block_kept: state.lockedBlock !== null,
      proposal_kept: state.proposal !== null,
    });
  return new CheckedSigner(privateKey, state, {
    persist: (last, lock, newLockedBlock, newProposal) => {
      const started = process.hrtime.bigint();
      const files = options.files ?? REAL_FILES;
      try {
        // The block first: a lock on disk whose block is not would be the stall this file prevents.
        if (newLockedBlock !== null) writeLockedBlock(blockPath, newLockedBlock, files);
        if (newProposal !== null) writeKeptProposal(proposalPath, newProposal, files);
        writePrivValidatorState(path, last, lock, files);
      } catch (e) {
        options.health?.failed('priv-validator', e);
        throw e;
      }
      options.health?.succeeded('priv-validator');
      metrics.privValidatorWrites.observe(Number(process.hrtime.bigint() - started) / 1e9);
      if (newLockedBlock !== null) options.afterLockRecorded?.();
      if (newProposal !== null) options.afterProposalRecorded?.();
    },
    onRefusal: (reason, detail, request) => {
      metrics.signaturesRefused.inc({ reason });
      const fields = { reason, detail, height: request.height, round: request.round, step: request.step };
      if (reason === 'unrecorded') {
        // With health told, the failure is logged once there, not once a vote.
        if (options.health === undefined)
          logger.error('signature withheld: its record could not be written', fields);
      } else logger.warn('signature refused: it would be double-signing', fields);
    },
  });
}
