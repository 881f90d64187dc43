/**
 * Hex <-> bytes. Hex on the wire is lowercase with no `0x` prefix (DESIGN decision 1);
 * parsing is strict so that one value has exactly one accepted spelling.
 */

const HEX_RE = /^(?:[0-9a-f]{2})*$/;

export function isHex(value: string, byteLength?: number): boolean {
  if (!HEX_RE.test(value)) return false;
  return byteLength === undefined || value.length === byteLength * 2;
}

export function hexToBytes(hex: string, byteLength?: number): Uint8Array {
  if (!isHex(hex, byteLength)) {
    const want = byteLength === undefined ? 'lowercase hex' : `${byteLength * 2} lowercase hex characters`;
    throw new TypeError(`expected ${want}, got ${JSON.stringify(hex.slice(0, 80))}`);
  }
  // Validated above, so every code is 0-9 or a-f: its nibble by arithmetic, no substring per
  // byte (a string and a parse for each were 0.8% of a 21-validator node's busy time, and garbage).
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++)
    out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

/** '0'-'9' are 48-57, 'a'-'f' 97-102. */
const nibble = (code: number): number => (code <= 57 ? code - 48 : code - 87);

const HEX_TABLE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX_TABLE[b];
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
