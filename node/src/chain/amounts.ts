/** Wei arithmetic helpers. Every amount is a bigint; 1 coin = 10^18 wei. */

export const WEI_PER_COIN = 10n ** 18n;
export const MAX_U256 = (1n << 256n) - 1n;
/** Rates (commission, uptime, slashing) are integers in parts per million: exact, no floats. */
export const PPM = 1_000_000n;

export function coins(n: number | bigint): bigint {
  return BigInt(n) * WEI_PER_COIN;
}

const DECIMAL_RE = /^(?:0|[1-9][0-9]*)$/;

/** Parses a canonical decimal wei string (no sign, no leading zeros, < 2^256), or returns null. */
export function parseWei(text: string): bigint | null {
  if (text.length > 78 || !DECIMAL_RE.test(text)) return null;
  const value = BigInt(text);
  return value <= MAX_U256 ? value : null;
}

/** part * ppm / 10^6, rounded down. */
export function mulPpm(amount: bigint, ppm: number): bigint {
  return (amount * BigInt(ppm)) / PPM;
}

/**
 * Converts a non-negative rate with at most six decimals into ppm (0.1 -> 100000), exactly:
 * returns null where that is impossible, so 0.1234567 is refused rather than rounded.
 * Whether the rate is within 0..1 is a rule (INVALID_COMMISSION), checked later.
 */
export function rateToPpm(rate: number): number | null {
  if (!Number.isFinite(rate) || rate < 0 || rate > 4294) return null;
  const ppm = Math.round(rate * 1e6);
  return ppm / 1e6 === rate ? ppm : null;
}

export function ppmToRate(ppm: number): number {
  return ppm / 1e6;
}

/**
 * Parses an amount as people write it: `1.5coin`, `100coins`, `2500wei`, or bare wei digits.
 * Returns null for anything else (more than 18 decimals, negative, not a number).
 */
export function parseAmount(text: string): bigint | null {
  const m = /^(\d+)(?:\.(\d{1,18}))?\s*(coins?|wei)?$/.exec(text.trim());
  if (!m) return null;
  const unit = m[3] ?? 'wei';
  if (unit === 'wei') return m[2] === undefined ? parseWei(m[1]!.replace(/^0+(?=\d)/, '')) : null;
  const whole = BigInt(m[1]!) * WEI_PER_COIN;
  const fraction = m[2] === undefined ? 0n : BigInt(m[2].padEnd(18, '0'));
  const total = whole + fraction;
  return total <= MAX_U256 ? total : null;
}

/** Wei as coins for people: 1500000000000000000 -> "1.5". */
export function formatCoins(wei: bigint): string {
  const whole = wei / WEI_PER_COIN;
  const fraction = (wei % WEI_PER_COIN).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
