/**
 * A task's terms as bytes, and the two identities that come from money (docs/MARKET.md, "Terms
 * and funding"):
 *
 *   terms_bytes = str("chain-market-task/v1") str(challenge_type) payload_bytes u256(reward)
 *                 opt(u64(deadline))
 *   payload_bytes = for each field of the type's table, in order: opt(value), a string as
 *                 str(s), an integer as u64(n), a decimal as u64(n × 10^6)
 *   funding memo = "market:" + hex(H(terms_bytes))
 *   task_id      = the UUID (RFC 9562, version 8) of the funding transaction's hash
 *
 * The creator signs the memo inside the funding TRANSFER, so a payment stands for exactly one
 * set of terms, and the task's id comes from that payment, so one payment makes one task however
 * often its POST is retried. Pure, like the chain's own encodings (same Writer).
 */
import { Writer } from '../chain/index.js';
import { sha256, utf8Bytes } from '../crypto/hash.js';
import { bytesToHex, hexToBytes } from '../crypto/hex.js';
import { type ChallengeType, PAYLOAD_FIELDS, type Payload } from './challenges.js';

export const TERMS_DOMAIN = 'chain-market-task/v1';
export const MEMO_PREFIX = 'market:';

export interface Terms {
  readonly challengeType: ChallengeType;
  readonly payload: Payload;
  readonly reward: bigint;
  /** Unix seconds; null when the creator left it to the market's default. */
  readonly deadline: number | null;
}

/** Millionths of a decimal with at most six decimals (checked before: schemas.ts). */
export function micros(value: number): number {
  return Math.round(value * 1e6);
}

export function termsBytes(t: Terms): Uint8Array {
  const w = new Writer().str(TERMS_DOMAIN).str(t.challengeType);
  for (const f of PAYLOAD_FIELDS[t.challengeType])
    w.opt(t.payload[f.name], (w, v) => {
      if (f.kind === 'string') w.str(v as string);
      else w.u64(f.kind === 'integer' ? (v as number) : micros(v as number));
    });
  return w
    .u256(t.reward)
    .opt(t.deadline, (w, d) => w.u64(d))
    .finish();
}

export function termsHash(t: Terms): string {
  return bytesToHex(sha256(termsBytes(t)));
}

/** The memo the funding TRANSFER must carry for these terms. */
export function fundingMemo(t: Terms): string {
  return `${MEMO_PREFIX}${termsHash(t)}`;
}

/**
 * The task id of a funding transaction: the first 16 bytes of its hash as an RFC 9562 UUID of
 * version 8 (custom): the version nibble set to 8, the variant bits to 10. Lowercase, as
 * SUBMIT_RESULT requires.
 */
export function taskIdOf(fundingTxHash: string): string {
  const b = hexToBytes(fundingTxHash, 32).slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = bytesToHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** UTF-8 bytes of a payload string (the bound of a string field counts these). */
export const byteLength = (s: string): number => utf8Bytes(s).length;
