/**
 * Sizes as people write them: `512`, `64KiB`, `1.5GiB`, `500MB` (binary units KiB, MiB, GiB, TiB;
 * decimal kB, MB, GB, TB; a bare number is bytes), and back for messages.
 */
const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  tb: 1000 ** 4,
};

/** Bytes, or null when `text` is no size (or more than Number.MAX_SAFE_INTEGER bytes). */
export function parseByteSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return null;
  const unit = UNITS[m[2]!.toLowerCase()];
  if (unit === undefined) return null;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** `1.2 MiB`, `826 B`: three significant digits at most, in binary units. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : Number(v.toPrecision(3))} ${units[i]}`;
}
