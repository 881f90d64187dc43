/** Numbers as the page shows them. */

const WEI_PER_COIN = 10n ** 18n;

/**
 * Wei (a decimal string) as coins for reading at a glance: grouped, at most four decimals, cut
 * rather than rounded ("1,000,000.5"). Not the node's exact formatCoins, whose import would bring
 * the chain's crypto into the page.
 */
export function coinsOf(wei: string): string {
  if (!/^\d+$/.test(wei)) return wei;
  const w = BigInt(wei);
  const whole = (w / WEI_PER_COIN).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (w % WEI_PER_COIN).toString().padStart(18, '0').slice(0, 4).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

export function shortHash(hash: string | null, digits = 10): string {
  return hash === null ? '–' : `${hash.slice(0, digits)}…`;
}

export function percent(rate: number): string {
  return `${(rate * 100).toFixed(rate === 1 ? 0 : 1)}%`;
}

export function bytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(2)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(0)} MiB`;
  return `${(n / 1024).toFixed(0)} KiB`;
}

export function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

/** `12 s ago`, `3 min ago`. */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  return s < 60 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

/** A node's JSON log line as `12:00:01.234 INFO message key=value …`; other lines as they are. */
export function logLine(line: string): { time: string; level: string; text: string } {
  try {
    const j = JSON.parse(line) as Record<string, unknown>;
    const { time, level, msg, ...rest } = j;
    const t = typeof time === 'number' || typeof time === 'string' ? new Date(time) : null;
    const fields = Object.entries(rest)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    return {
      time: t === null || Number.isNaN(t.getTime()) ? '' : t.toISOString().slice(11, 23),
      level: typeof level === 'string' ? level.toUpperCase() : typeof level === 'number' ? String(level) : '',
      text: `${typeof msg === 'string' ? msg : ''}${fields ? ` ${fields}` : ''}`,
    };
  } catch {
    return { time: '', level: '', text: line };
  }
}
