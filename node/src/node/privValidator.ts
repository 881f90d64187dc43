/**
 * <home>/priv_validator_state.json: the validator's last signature and lock (format in
 * docs/PROTOCOL.md, "Priv-validator state"), read once at start and rewritten durably before
 * each new signature leaves the node: the JSON goes to a temporary file, which is fsynced,
 * renamed over the old one, and the folder fsynced, so that after a crash at any moment the file
 * holds either the old state or the new one, never a torn one. The write is synchronous, as in
 * CometBFT: the consensus core signs synchronously and must not count or send a vote whose record
 * is not on disk (two fsyncs, measured in docs/BENCHMARKS.md).
 *
 * A missing file is a validator that never signed. A file that cannot be read, parsed or checked
 * stops the node: starting over from nothing is exactly how a validator double-signs.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CheckedSigner } from '../consensus/checkedSigner.js';
import {
  type LastSigned,
  type Lock,
  NEVER_SIGNED,
  type PrivValidatorState,
  stateFromJson,
  stateToJson,
} from '../consensus/privValidatorState.js';
import { sha256 } from '../crypto/hash.js';
import { hexToBytes } from '../crypto/hex.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import { verifyDigest } from '../crypto/signature.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { Logger } from '../util/logger.js';

export const PRIV_VALIDATOR_STATE_FILE = 'priv_validator_state.json';

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

/** The state in `path` (NEVER_SIGNED when there is no file), checked against `privateKey`. */
export async function readPrivValidatorState(
  path: string,
  privateKey: Uint8Array,
): Promise<PrivValidatorState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return NEVER_SIGNED;
    throw unusable(path, `cannot be read (${code ?? (e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw unusable(path, `is not valid JSON (${(e as Error).message})`);
  }
  const state = stateFromJson(json);
  if (typeof state === 'string') throw unusable(path, `is not a priv-validator state: ${state}`);
  const last = state.last!;
  if (!verifyDigest(sha256(hexToBytes(last.signBytes)), last.signature, publicKeyHexOf(privateKey)))
    throw unusable(path, 'holds a signature that is not this validator key’s (another validator’s file?)');
  return state;
}

/** Replaces the file durably: temporary file, fsync, rename, fsync of the folder. */
export function writePrivValidatorState(path: string, last: LastSigned, lock: Lock | null): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(stateToJson(last, lock), null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  const folder = openSync(dirname(path), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/** The validator's signer over <home>/priv_validator_state.json: refusals are logged and counted. */
export async function openPrivValidator(
  home: string,
  privateKey: Uint8Array,
  metrics: NodeMetrics,
  logger: Logger,
): Promise<CheckedSigner> {
  const path = join(home, PRIV_VALIDATOR_STATE_FILE);
  const state = await readPrivValidatorState(path, privateKey);
  if (state.last !== null)
    logger.info('priv-validator state loaded', {
      height: state.last.height,
      round: state.last.round,
      step: state.last.step,
      locked: state.lock,
    });
  return new CheckedSigner(privateKey, state, {
    persist: (last, lock) => {
      const started = process.hrtime.bigint();
      writePrivValidatorState(path, last, lock);
      metrics.privValidatorWrites.observe(Number(process.hrtime.bigint() - started) / 1e9);
    },
    onRefusal: (reason, detail, request) => {
      metrics.signaturesRefused.inc({ reason });
      const fields = { reason, detail, height: request.height, round: request.round, step: request.step };
      if (reason === 'unrecorded')
        logger.error('signature withheld: its record could not be written', fields);
      else logger.warn('signature refused: it would be double-signing', fields);
    },
  });
}
