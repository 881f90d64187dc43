/** Durations as people write them: `300ms`, `2s`, `1.5s`, `5m`, `1h`; a bare number is milliseconds. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * UNITS[m[2] ?? 'ms']!;
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms) : null;
}

/** A duration with a sign, as a clock's skew or a time jump is written: `+3s`, `-10s`, `1h` (no sign: ahead). */
export function parseSignedDuration(text: string): number | null {
  const t = text.trim();
  const sign = t.startsWith('-') ? -1 : 1;
  const ms = parseDuration(t.startsWith('-') || t.startsWith('+') ? t.slice(1) : t);
  return ms === null ? null : sign * ms;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0 && ms > 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
