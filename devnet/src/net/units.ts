/**
 * The values of network conditions as people write them, read where they enter (the CLI, a
 * scenario, the testkit) and written back for people: delays (`100ms`, `0.2s`, a bare number of
 * ms), loss (`1%`, `0.01`) and rates (`1mbit`, `500kbit`, `8000bit`, a bare number of bit/s;
 * decimal units as tc writes them). Each reader returns null for text it does not take; the
 * caller names the field (the option, the step) with `expected`.
 */
import { NET_LIMITS } from '@chain-devnet/node/testnet';
import type { LinkFields } from './netState.js';

export const EXPECTED = {
  delay: `a delay such as 100ms or 0.2s (0 to ${NET_LIMITS.maxDelayMs / 1000}s)`,
  loss: 'a loss such as 1% or 0.01 (from 0 to below 100%)',
  rate: `a rate such as 1mbit, 500kbit or 1gbit (${NET_LIMITS.minRateBps}bit to ${NET_LIMITS.maxRateBps / 1e9}gbit)`,
} as const;

const DELAY_UNITS: Record<string, number> = { '': 1, ms: 1, s: 1000 };
const RATE_UNITS: Record<string, number> = { '': 1, bit: 1, kbit: 1e3, mbit: 1e6, gbit: 1e9 };

/** Milliseconds (a fraction kept to the microsecond), or null. */
export function parseDelay(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/i.exec(text.trim());
  if (!m) return null;
  const ms = Math.round(Number(m[1]) * DELAY_UNITS[(m[2] ?? '').toLowerCase()]! * 1000) / 1000;
  return ms <= NET_LIMITS.maxDelayMs ? ms : null;
}

/** A fraction 0 ≤ loss < 1, or null. */
export function parseLoss(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(%)?$/.exec(text.trim());
  if (!m) return null;
  const loss = m[2] === '%' ? Number(m[1]) / 100 : Number(m[1]);
  return loss >= 0 && loss < 1 ? loss : null;
}

/** Whole bits a second within the node's bounds, or null. */
export function parseRate(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(bit|kbit|mbit|gbit)?$/i.exec(text.trim());
  if (!m) return null;
  const bps = Math.round(Number(m[1]) * RATE_UNITS[(m[2] ?? '').toLowerCase()]!);
  return bps >= NET_LIMITS.minRateBps && bps <= NET_LIMITS.maxRateBps ? bps : null;
}

/** Conditions as a step, a testkit call or the panel give them: text as people write it, or numbers (ms, a fraction, bit/s). */
export interface FieldsInput {
  readonly latency?: string | number;
  readonly jitter?: string | number;
  readonly loss?: string | number;
  readonly rate?: string | number;
}

type Read = (t: string) => number | null;

/** The LinkFields of `o` (latencyMs, jitterMs, loss, rateBps), or the problems, each naming `${at}.field`. */
export function linkFieldsOf(
  o: FieldsInput,
  at: string,
): { ok: true; fields: LinkFields } | { ok: false; problems: string[] } {
  const spec: [keyof FieldsInput, keyof LinkFields, Read, string][] = [
    ['latency', 'latencyMs', parseDelay, EXPECTED.delay],
    ['jitter', 'jitterMs', parseDelay, EXPECTED.delay],
    ['loss', 'loss', parseLoss, EXPECTED.loss],
    ['rate', 'rateBps', parseRate, EXPECTED.rate],
  ];
  const fields: { -readonly [K in keyof LinkFields]: number } = {};
  const problems: string[] = [];
  for (const [key, field, read, expected] of spec) {
    const v = o[key];
    if (v === undefined) continue;
    const n = read(String(v));
    if (n === null) problems.push(`${at}.${key} must be ${expected}, got ${JSON.stringify(v)}`);
    else fields[field] = n;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, fields };
}
